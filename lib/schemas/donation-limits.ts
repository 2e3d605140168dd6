/**
 * The limits of what a donor sends with a gift (POST /api/donations), in one place and without
 * zod: the API's schemas are built from them (./donations.ts, ./address.ts, ./common.ts), and the
 * donate form checks them in the browser without loading those schemas and zod with them
 * (components/donate/donate-schema.ts).
 */

export const RECURRING_INTERVALS = ["WEEK", "MONTH", "QUARTER", "YEAR"] as const;
export type RecurringInterval = (typeof RECURRING_INTERVALS)[number];
/** The donate form's monthly upsell: shown after a one-time choice, then accepted (the gift is the monthly one) or declined. */
export const UPSELL_OUTCOMES = ["OFFERED", "ACCEPTED", "DECLINED"] as const;
export type UpsellOutcome = (typeof UPSELL_OUTCOMES)[number];

/** A gift in minor units: at least one whole unit of the usual currencies, at most a million of them. */
export const AMOUNT_LIMITS = { min: 100, max: 100_000_000 } as const;
/** Seats of one tier (or of an event's single tier) in one order. */
export const TICKETS_LIMITS = { min: 1, max: 100 } as const;
/** The longest email address (RFC 5321's path limit, less the brackets, rounded as most services do). */
export const EMAIL_MAX = 320;
/** The longest Cloudflare Turnstile token. */
export const CAPTCHA_TOKEN_MAX = 2048;

/** The longest text of each field, counted once HTML is stripped (lib/schemas/common.ts, plainText). */
export const TEXT_LIMITS = {
  name: 100,
  message: 1000,
  honoreeName: 140,
  dedicationMessage: 1000,
  addressLine: 200,
  city: 100,
  region: 100,
  postalCode: 20,
  giftAidTitle: 20,
  houseNameOrNumber: 100,
  postcode: 12,
} as const;
/** The shortest postcode of a Gift Aid declaration. */
export const POSTCODE_MIN = 2;
