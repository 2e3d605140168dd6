// The donate form's rules as they were written with zod/mini before the form dropped zod
// (components/donate/donate-schema.ts now checks them by hand): kept here, and only here, as the
// reference tests/unit/donate-form-check.test.ts holds the hand-written check to.
import * as z from "zod/mini";
import { isCountryCode } from "@/lib/countries";
import { currencyDecimals, parseMoney, type MoneyProblem } from "@/lib/money";
import {
  AMOUNT_LIMITS,
  CAPTCHA_TOKEN_MAX,
  EMAIL_MAX,
  POSTCODE_MIN,
  RECURRING_INTERVALS,
  TEXT_LIMITS,
  TICKETS_LIMITS,
} from "@/lib/schemas/donation-limits";
import {
  asksAddress,
  campaignLimits,
  offersGiftAid,
  ticketCount,
  type DonateFormContext,
  type DonateFormValues,
} from "@/components/donate/donate-schema";
import type { DonateFormCampaign } from "@/components/donate/types";

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
export function referenceDonateFormSchema(c: DonateFormCampaign, values: DonateFormValues, context: DonateFormContext) {
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
