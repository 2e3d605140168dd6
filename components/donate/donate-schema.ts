import * as z from "zod/mini";
import { addressRequired } from "@/lib/address-required";
import { isCountryCode } from "@/lib/countries";
import { intlTag, type Locale } from "@/lib/i18n/locales";
import { currencyDecimals, minimumDonationMinor, parseMoney, type MoneyProblem } from "@/lib/money";
import {
  AMOUNT_LIMITS,
  CAPTCHA_TOKEN_MAX,
  EMAIL_MAX,
  POSTCODE_MIN,
  RECURRING_INTERVALS,
  TEXT_LIMITS,
  TICKETS_LIMITS,
  type RecurringInterval,
  type UpsellOutcome,
} from "@/lib/schemas/donation-limits";
import type { DonateFormCampaign } from "./types";

export type { UpsellOutcome };

/**
 * The donate form's values (text as typed) and their rules: each field is checked against the
 * API's own limits (lib/schemas/donation-limits.ts, which the API's schemas are built from), after
 * the campaign's rules (its minimum, suggested amounts only, tickets per order and left), so the
 * form never restates a limit of its own.
 */
export type Frequency = "ONCE" | RecurringInterval;
export type DedicationType = "IN_HONOR" | "IN_MEMORY";
export type TicketOrderValue = { tierId: string; quantity: number; attendees: { name: string; email: string }[] };

export type DonateFormValues = {
  /** A suggested amount (its minor units, as text) or "custom" for the typed one. */
  amount: { choice: string; custom: string };
  tickets: string;
  /** An event's seats per tier, each with the attendees named for them (in seat order). */
  ticketOrder: TicketOrderValue[];
  /** An extra gift on top of an event's tickets, as typed. */
  extraGift: string;
  recurringInterval: Frequency;
  firstName: string;
  lastName: string;
  email: string;
  anonymous: boolean;
  message: string;
  dedicate: boolean;
  dedication: { type: DedicationType; honoreeName: string; notifyEmail: string; message: string };
  coverFees: boolean;
  /** "Remind me if I don't finish" (off by default). */
  remindIfUnfinished: boolean;
  /** "Keep me updated by email" (off by default). */
  emailOptIn: boolean;
  /** The donor's postal address, asked when the campaign or the receipt profile needs it (addressRequired). */
  address: { line1: string; line2: string; city: string; region: string; postalCode: string; country: string };
  /** A UK taxpayer's Gift Aid declaration (UK receipt profile only): ticked, and the home address it needs. */
  claimGiftAid: boolean;
  giftAid: { title: string; houseNameOrNumber: string; postcode: string };
  /** The monthly upsell as the donor left it; null until it is offered. */
  upsell: UpsellOutcome | null;
  captchaToken: string | null;
};

/**
 * What the rules need to know besides the campaign: whether Turnstile is on and did load, and the
 * page's `Intl` tag, whose way of writing amounts ("25,50" in de, fr, es) the custom amount takes.
 */
export type DonateFormContext = { captcha: boolean; captchaUnavailable: boolean; locale?: string };

/** Fields that show their own error, top to bottom: the first invalid one gets the focus. */
export const FIELD_ORDER = [
  "amount",
  "tickets",
  "recurringInterval",
  "firstName",
  "lastName",
  "email",
  "message",
  "address.line1",
  "address.line2",
  "address.city",
  "address.region",
  "address.postalCode",
  "address.country",
  "giftAid.title",
  "giftAid.houseNameOrNumber",
  "giftAid.postcode",
  "dedication.honoreeName",
  "dedication.notifyEmail",
  "dedication.message",
  "captchaToken",
] as const;

/** The inputs' maxLength: the API's own limits (lib/schemas/donation-limits.ts). */
export const TEXT_MAX = {
  name: TEXT_LIMITS.name,
  email: EMAIL_MAX,
  message: TEXT_LIMITS.message,
  honoreeName: TEXT_LIMITS.honoreeName,
  dedicationMessage: TEXT_LIMITS.dedicationMessage,
  addressLine: TEXT_LIMITS.addressLine,
  city: TEXT_LIMITS.city,
  postalCode: TEXT_LIMITS.postalCode,
  houseNameOrNumber: TEXT_LIMITS.houseNameOrNumber,
  title: TEXT_LIMITS.giftAidTitle,
  postcode: TEXT_LIMITS.postcode,
};

/** Whether the form asks for the address: the campaign's `collectAddress` or the receipt profile (CA). */
export const asksAddress = (c: DonateFormCampaign) => addressRequired(c, c);
/** Whether the form offers Gift Aid: UK organizations only. */
export const offersGiftAid = (c: DonateFormCampaign) => c.receiptProfile === "UK";

/** The campaign's limits, as the form shows and checks them: the currency's smallest gift or the campaign's minimum. */
export function campaignLimits(c: DonateFormCampaign) {
  const minCents = Math.max(minimumDonationMinor(c.currency), c.minAmountCents ?? 0);
  const ticketsLeft = c.ticketCapacity !== null ? Math.max(0, c.ticketCapacity - c.ticketsSold) : null;
  const maxTickets = Math.min(c.maxTicketsPerOrder, ticketsLeft ?? c.maxTicketsPerOrder);
  const frequencies: Frequency[] =
    c.type === "EVENT" ? [] : c.type === "MEMBERSHIP" ? [...RECURRING_INTERVALS] : c.allowRecurring ? ["ONCE", ...RECURRING_INTERVALS] : [];
  return { minCents, ticketsLeft, maxTickets, frequencies };
}

/** The number of tickets typed, or NaN. */
export const ticketCount = (text: string) => (/^\d{1,3}$/.test(text) ? Number(text) : NaN);

/** The gift in minor units as chosen or typed (in the campaign's currency), or null while there is none. */
export function amountCentsOf(
  v: Pick<DonateFormValues, "amount" | "tickets"> & Partial<Pick<DonateFormValues, "ticketOrder" | "extraGift">>,
  c: DonateFormCampaign,
  locale?: string,
): number | null {
  if (c.type === "EVENT") {
    const n = ticketCount(v.tickets);
    if (!Number.isInteger(n) || n < 1) return null;
    if (!v.ticketOrder || v.ticketOrder.length === 0) return n * (c.ticketPriceCents ?? 0);
    const tickets = v.ticketOrder.reduce((sum, l) => sum + l.quantity * (c.ticketTiers.find((t) => t.id === l.tierId)?.priceCents ?? 0), 0);
    return tickets + (extraGiftCents(v.extraGift ?? "", c, locale) ?? 0);
  }
  if (v.amount.choice !== "custom") return Number(v.amount.choice);
  const parsed = parseMoney(v.amount.custom, c.currency, { locale });
  return parsed.ok && parsed.minor !== null && parsed.minor > 0 ? parsed.minor : null;
}

/**
 * An event whose tiers are its own (not the single tier of a campaign created the old way) is
 * bought per tier, with attendees and an optional extra gift; the old kind keeps its one stepper.
 */
export const usesTierPicker = (c: Pick<DonateFormCampaign, "type" | "ticketTiers">) =>
  c.type === "EVENT" && c.ticketTiers.length > 0 && !(c.ticketTiers.length === 1 && c.ticketTiers[0].id === "general");

/** The extra gift typed on top of an event's tickets, in minor units (0 when empty), or null when it can't be read. */
export function extraGiftCents(text: string, c: Pick<DonateFormCampaign, "currency">, locale?: string): number | null {
  if (!text.trim()) return 0;
  const parsed = parseMoney(text, c.currency, { locale });
  return parsed.ok && parsed.minor !== null && parsed.minor >= 0 ? parsed.minor : null;
}

/** The order as the API takes it: the tiers with seats, attendees named (blank ones left to the buyer's name). */
export function ticketOrderBody(order: TicketOrderValue[]) {
  return order
    .filter((l) => l.quantity > 0)
    .map((l) => {
      const attendees = l.attendees
        .slice(0, l.quantity)
        .map((a) => ({ name: a.name.trim(), email: a.email.trim() || null }))
        .filter((a) => a.name);
      return { tierId: l.tierId, quantity: l.quantity, ...(attendees.length > 0 ? { attendees } : {}) };
    });
}

/** A campaign rule's failure: a `custom` issue named by the API's domain code, with its values. */
function fail(ctx: z.core.$RefinementCtx, input: unknown, code: string, values: Record<string, unknown> = {}) {
  ctx.addIssue({ code: "custom", input, message: code, params: { code, ...values } });
}

/** The same from a transform, whose context in zod/mini is the parse payload itself. */
function failTransform(payload: z.core.ParsePayload, input: unknown, message: string, params: Record<string, unknown>) {
  payload.issues.push({ code: "custom", input, message, params });
}

/** A custom amount lib/money.ts can't read, as the code the form words in the page's language (issue-words.ts). */
const AMOUNT_PROBLEM: Record<MoneyProblem["code"], string> = {
  negative: "amount_negative",
  too_precise: "amount_too_precise",
  too_large: "amount_too_large",
  unreadable: "amount_unreadable",
};

/** The API's rule for a gift's amount (createDonationBody's `amount`). */
const apiAmount = z.int().check(z.gte(AMOUNT_LIMITS.min), z.lte(AMOUNT_LIMITS.max));
/** The API's rule for a number of seats (ticketCountInput). */
const apiTickets = z.int().check(z.gte(TICKETS_LIMITS.min), z.lte(TICKETS_LIMITS.max));

function amountSchema(c: DonateFormCampaign, locale: string | undefined) {
  const { minCents } = campaignLimits(c);
  const typed = z
    .pipe(
      z.object({ choice: z.string(), custom: z.string() }),
      z.transform((v: { choice: string; custom: string }, ctx) => {
        if (v.choice !== "custom") return Number(v.choice);
        const parsed = parseMoney(v.custom, c.currency, { locale });
        if (!parsed.ok || parsed.minor === null) {
          const message = parsed.ok ? "Enter an amount" : parsed.message;
          const code = parsed.ok ? "amount_empty" : AMOUNT_PROBLEM[parsed.code];
          failTransform(ctx, v.custom, message, { code, decimals: currencyDecimals(c.currency) });
          return z.NEVER;
        }
        return parsed.minor;
      }),
    )
    .check(
      z.superRefine((cents: number, ctx) => {
        if (cents < minCents) fail(ctx, cents, "amount_below_minimum", { minimum: minCents });
        else if (!c.allowCustomAmount && !c.suggestedAmounts.includes(cents))
          fail(ctx, cents, "not_a_suggested_amount", { values: c.suggestedAmounts });
      }),
    );
  return z.pipe(typed, apiAmount);
}

function ticketsSchema(c: DonateFormCampaign) {
  const { ticketsLeft, maxTickets } = campaignLimits(c);
  const typed = z.pipe(z.string(), z.transform(ticketCount)).check(
    z.superRefine((n: number, ctx) => {
      if (!Number.isInteger(n) || n < 1) fail(ctx, n, "tickets_required");
      else if (n > maxTickets && ticketsLeft !== null && ticketsLeft < c.maxTicketsPerOrder)
        fail(ctx, n, "tickets_over_available", { maximum: ticketsLeft });
      else if (n > maxTickets) fail(ctx, n, "tickets_over_limit", { maximum: c.maxTicketsPerOrder });
    }),
  );
  return z.pipe(typed, apiTickets);
}

/**
 * Text as typed, trimmed, within the API's length for the field (`min` 1: required). The API
 * counts characters once HTML is stripped (plainText) and has the last word: text with markup
 * may be refused here a little sooner.
 */
const text = (max: number, min = 0) => z.string().check(z.trim(), ...(min > 0 ? [z.minLength(min)] : []), z.maxLength(max));
/** An email address as the API takes it (lib/schemas/common.ts `email`: zod's own pattern, the same in both). */
const emailRule = (required: boolean) =>
  required
    ? z.pipe(text(EMAIL_MAX, 1), z.email())
    : z.pipe(
        z.pipe(
          text(EMAIL_MAX),
          z.transform((s: string) => s || null),
        ),
        z.nullable(z.email()),
      );
const anything = z.unknown();

/**
 * The rules for these values: a dedication only when the donor adds one, tickets only for events.
 * Zod Mini (zod/mini): the page loads only the checks used here, not zod and the API's schemas.
 */
export function donateFormSchema(c: DonateFormCampaign, values: DonateFormValues, context: DonateFormContext) {
  const isEvent = c.type === "EVENT";
  return z.object({
    amount: isEvent ? anything : amountSchema(c, context.locale),
    tickets: isEvent ? ticketsSchema(c) : anything,
    ticketOrder: anything,
    extraGift: anything,
    recurringInterval: z.enum(["ONCE", ...RECURRING_INTERVALS]),
    firstName: text(TEXT_LIMITS.name, 1),
    lastName: text(TEXT_LIMITS.name, 1),
    email: emailRule(true),
    anonymous: z.boolean(),
    message: text(TEXT_LIMITS.message),
    dedicate: z.boolean(),
    dedication: values.dedicate
      ? z.object({
          type: z.enum(["IN_HONOR", "IN_MEMORY"]),
          honoreeName: text(TEXT_LIMITS.honoreeName, 1),
          notifyEmail: emailRule(false),
          message: text(TEXT_LIMITS.dedicationMessage),
        })
      : anything,
    coverFees: z.boolean(),
    remindIfUnfinished: z.boolean(),
    emailOptIn: z.boolean(),
    address: asksAddress(c)
      ? z.object({
          line1: text(TEXT_LIMITS.addressLine, 1),
          line2: text(TEXT_LIMITS.addressLine),
          city: text(TEXT_LIMITS.city, 1),
          region: text(TEXT_LIMITS.region),
          postalCode: text(TEXT_LIMITS.postalCode),
          country: z
            .string()
            .check(z.trim(), z.minLength(1), z.toUpperCase(), z.refine(isCountryCode, "Must be an ISO 3166-1 alpha-2 country code")),
        })
      : anything,
    claimGiftAid: z.boolean(),
    giftAid:
      offersGiftAid(c) && values.claimGiftAid
        ? z.object({
            title: text(TEXT_LIMITS.giftAidTitle),
            houseNameOrNumber: text(TEXT_LIMITS.houseNameOrNumber, 1),
            postcode: text(TEXT_LIMITS.postcode, 1).check(z.minLength(POSTCODE_MIN)),
          })
        : anything,
    upsell: anything,
    captchaToken: context.captcha
      ? z.pipe(
          z.pipe(
            z.nullable(z.string()),
            z.transform((token: string | null, ctx) => {
              if (token !== null) return token;
              const code = context.captchaUnavailable ? "captcha_unavailable" : "captcha_required";
              failTransform(ctx, token, code, { code });
              return z.NEVER;
            }),
          ),
          z.string().check(z.minLength(1), z.maxLength(CAPTCHA_TOKEN_MAX)),
        )
      : anything,
  });
}

export type DonateFormOutput = z.output<ReturnType<typeof donateFormSchema>>;

/**
 * POST /api/donations's body: the donor's text trimmed (the server strips HTML itself), and the
 * page's language, when given, which the donation keeps for the donor's emails.
 */
export function donationRequestBody(v: DonateFormValues, c: DonateFormCampaign, captcha: boolean, locale?: Locale) {
  const isEvent = c.type === "EVENT";
  return {
    campaignId: c.id,
    amount: amountCentsOf(v, c, locale && intlTag(locale)),
    email: v.email.trim(),
    firstName: v.firstName.trim(),
    lastName: v.lastName.trim(),
    anonymous: v.anonymous,
    message: v.message.trim() || null,
    dedication: v.dedicate
      ? {
          type: v.dedication.type,
          honoreeName: v.dedication.honoreeName.trim(),
          notifyEmail: v.dedication.notifyEmail.trim() || null,
          message: v.dedication.message.trim() || null,
        }
      : null,
    recurringInterval: v.recurringInterval === "ONCE" ? null : v.recurringInterval,
    ...(isEvent && v.ticketOrder.length > 0
      ? {
          tickets: ticketOrderBody(v.ticketOrder),
          ...((extraGiftCents(v.extraGift, c, locale && intlTag(locale)) ?? 0) > 0
            ? { extraAmount: extraGiftCents(v.extraGift, c, locale && intlTag(locale)) }
            : {}),
        }
      : { tickets: isEvent ? ticketCount(v.tickets) : null }),
    coverFees: v.coverFees,
    remindIfUnfinished: v.remindIfUnfinished,
    emailOptIn: v.emailOptIn,
    ...(asksAddress(c)
      ? {
          address: {
            line1: v.address.line1.trim(),
            line2: v.address.line2.trim() || null,
            city: v.address.city.trim(),
            region: v.address.region.trim() || null,
            postalCode: v.address.postalCode.trim() || null,
            country: v.address.country,
          },
        }
      : {}),
    ...(offersGiftAid(c) && v.claimGiftAid
      ? {
          giftAid: {
            title: v.giftAid.title.trim() || null,
            firstName: v.firstName.trim(),
            lastName: v.lastName.trim(),
            houseNameOrNumber: v.giftAid.houseNameOrNumber.trim(),
            postcode: v.giftAid.postcode.trim(),
            confirmed: true,
          },
        }
      : {}),
    ...(v.upsell ? { upsell: v.upsell } : {}),
    ...(captcha ? { captchaToken: v.captchaToken } : {}),
    ...(locale ? { locale } : {}),
  };
}

/** The country the address starts at: the receipt profile's own; none for GENERIC. */
const DEFAULT_COUNTRY: Record<DonateFormCampaign["receiptProfile"], string> = { US: "US", CA: "CA", UK: "GB", GENERIC: "" };

/** The starting values: the second suggested amount that meets the minimum (the usual "most popular" slot). */
export function initialValues(c: DonateFormCampaign): DonateFormValues {
  const { minCents } = campaignLimits(c);
  const eligible = c.suggestedAmounts.filter((a) => a >= minCents);
  const choice = eligible.length > 0 ? String(eligible[Math.min(1, eligible.length - 1)]) : "custom";
  return {
    amount: { choice, custom: "" },
    tickets: "1",
    ticketOrder: usesTierPicker(c) ? c.ticketTiers.map((t, i) => ({ tierId: t.id, quantity: i === 0 ? 1 : 0, attendees: [] })) : [],
    extraGift: "",
    recurringInterval: c.type === "MEMBERSHIP" ? "MONTH" : "ONCE",
    firstName: "",
    lastName: "",
    email: "",
    anonymous: false,
    message: "",
    dedicate: false,
    dedication: { type: "IN_HONOR", honoreeName: "", notifyEmail: "", message: "" },
    coverFees: false,
    remindIfUnfinished: false,
    emailOptIn: false,
    address: { line1: "", line2: "", city: "", region: "", postalCode: "", country: DEFAULT_COUNTRY[c.receiptProfile] },
    claimGiftAid: false,
    giftAid: { title: "", houseNameOrNumber: "", postcode: "" },
    upsell: null,
    captchaToken: null,
  };
}
