import type * as z from "zod/mini";
import { addressRequired } from "@/lib/address-required";
import { isCountryCode } from "@/lib/countries";
import { intlTag, type Locale } from "@/lib/i18n/locales";
import { currencyDecimals, minimumDonationMinor, minorToInput, parseMoney, type MoneyProblem } from "@/lib/money";
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

/** The amount's value for a gift of `minor` units: its button when the campaign suggests it (or takes no other amount), else typed in. */
export function amountValueOf(minor: number, c: DonateFormCampaign, locale?: string): DonateFormValues["amount"] {
  return c.suggestedAmounts.includes(minor) || !c.allowCustomAmount
    ? { choice: String(minor), custom: "" }
    : { choice: "custom", custom: minorToInput(minor, c.currency, { locale }) };
}

/** A reminder's link reopens the same gift: `?amount=` (minor units) and `?frequency=`, over `values`. */
export function withQuery(values: DonateFormValues, query: URLSearchParams, c: DonateFormCampaign, locale?: string): DonateFormValues {
  const amount = Number(query.get("amount"));
  const frequency = query.get("frequency") as Frequency | null;
  return {
    ...values,
    ...(c.type !== "EVENT" && Number.isInteger(amount) && amount > 0 ? { amount: amountValueOf(amount, c, locale) } : {}),
    ...(frequency && campaignLimits(c).frequencies.includes(frequency) ? { recurringInterval: frequency } : {}),
  };
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

/**
 * A problem with one field, in zod's issue shape (the API's errors have the same: lib/errors.ts
 * `issueCodeOf` reads both, and issue-words.ts words them). The checks below are the form's own,
 * written out rather than built with zod so the donate page carries no schema library; each states
 * the rule of the API's schema it mirrors (tests/unit/donate-form-rules.test.ts has both judge the
 * same gifts, and tests/unit/donate-form-check.test.ts holds them to the zod/mini version they
 * replace). Built-in problems say "Invalid input", as zod/mini does without a locale: the form
 * words them from their code and values.
 */
export type FormIssue = z.core.$ZodIssue;
type Path = (string | number)[];

/** What a check of the whole form answers: its values as checked, or every problem found. */
export type FormCheckResult<T> =
  { success: true; data: T; error?: undefined } | { success: false; data?: undefined; error: { issues: FormIssue[] } };

/** The donate form's check for one set of rules (`donateFormSchema`). */
export type FormCheck<T> = {
  safeParse(values: DonateFormValues): FormCheckResult<T>;
};

const INVALID = "Invalid input";

/** The address pattern of the API's `email` (zod's own; tests/unit/donate-form-rules.test.ts compares them). */
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Collects a check's problems: each rule pushes its issue and answers whether the value passed. */
class Issues {
  readonly list: FormIssue[] = [];

  add(issue: Record<string, unknown>): false {
    this.list.push(issue as unknown as FormIssue);
    return false;
  }

  type(path: Path, input: unknown, expected: string): false {
    return this.add({ code: "invalid_type", expected, input, path, message: INVALID });
  }

  /** A rule of the campaign or the form's own: a `custom` issue named by its code, with its values. */
  custom(path: Path, input: unknown, message: string, params: Record<string, unknown> = {}): false {
    return this.add({ code: "custom", input, path, message, params });
  }

  /** `min` ≤ n ≤ `max` (inclusive), for a length (`origin` string) or a number. */
  within(path: Path, input: unknown, n: number, origin: "string" | "number", min: number | null, max: number | null): boolean {
    let ok = true;
    if (min !== null && n < min) ok = this.add({ code: "too_small", origin, minimum: min, inclusive: true, input, path, message: INVALID });
    if (max !== null && n > max) ok = this.add({ code: "too_big", origin, maximum: max, inclusive: true, input, path, message: INVALID });
    return ok;
  }

  /** An integer within the API's limits (zod's `z.int()` with `gte`/`lte`). */
  int(path: Path, n: number, limits: { min: number; max: number }): boolean {
    if (!Number.isSafeInteger(n)) return this.type(path, n, "int");
    return this.within(path, n, n, "number", limits.min, limits.max);
  }

  /**
   * Text as typed, trimmed, within the API's length for the field (`min` 1: required); the
   * trimmed text, or undefined when it fails. The API counts characters once HTML is stripped
   * (plainText) and has the last word: text with markup may be refused here a little sooner.
   */
  text(path: Path, input: unknown, max: number, min = 0): string | undefined {
    if (typeof input !== "string") return void this.type(path, input, "string");
    const s = input.trim();
    return this.within(path, s, s.length, "string", min > 0 ? min : null, max) ? s : undefined;
  }

  /** An email address as the API takes it (lib/schemas/common.ts `email`); optional: empty is null. */
  email(path: Path, input: unknown, required: boolean): string | null | undefined {
    const s = this.text(path, input, EMAIL_MAX, required ? 1 : 0);
    if (s === undefined) return undefined;
    if (!s && !required) return null;
    if (EMAIL_PATTERN.test(s)) return s;
    return void this.add({
      code: "invalid_format",
      format: "email",
      origin: "string",
      pattern: EMAIL_PATTERN.toString(),
      input: s,
      path,
      message: INVALID,
    });
  }

  boolean(path: Path, input: unknown): boolean {
    return typeof input === "boolean" || this.type(path, input, "boolean");
  }

  oneOf<T extends string>(path: Path, input: unknown, values: readonly T[]): input is T {
    return values.includes(input as T) || this.add({ code: "invalid_value", values: [...values], input, path, message: INVALID });
  }

  object(path: Path, input: unknown): input is Record<string, unknown> {
    return isRecord(input) || this.type(path, input, "object");
  }
}

/** A custom amount lib/money.ts can't read, as the code the form words in the page's language (issue-words.ts). */
const AMOUNT_PROBLEM: Record<MoneyProblem["code"], string> = {
  negative: "amount_negative",
  too_precise: "amount_too_precise",
  too_large: "amount_too_large",
  unreadable: "amount_unreadable",
};

/**
 * The gift's amount in minor units: a suggested one or the typed one read in the page's way of
 * writing money, then the campaign's rules (its minimum, suggested amounts only), then the API's
 * (createDonationBody's `amount`). The first rule that fails is the one reported.
 */
function checkAmount(issues: Issues, input: unknown, c: DonateFormCampaign, locale: string | undefined): number | undefined {
  const path = ["amount"];
  if (!issues.object(path, input)) return undefined;
  const { choice, custom } = input;
  if (typeof choice !== "string") return void issues.type([...path, "choice"], choice, "string");
  if (typeof custom !== "string") return void issues.type([...path, "custom"], custom, "string");
  let cents: number;
  if (choice !== "custom") cents = Number(choice);
  else {
    const parsed = parseMoney(custom, c.currency, { locale });
    if (!parsed.ok || parsed.minor === null) {
      const message = parsed.ok ? "Enter an amount" : parsed.message;
      const code = parsed.ok ? "amount_empty" : AMOUNT_PROBLEM[parsed.code];
      return void issues.custom(path, custom, message, { code, decimals: currencyDecimals(c.currency) });
    }
    cents = parsed.minor;
  }
  const { minCents } = campaignLimits(c);
  if (cents < minCents) return void issues.custom(path, cents, "amount_below_minimum", { code: "amount_below_minimum", minimum: minCents });
  if (!c.allowCustomAmount && !c.suggestedAmounts.includes(cents))
    return void issues.custom(path, cents, "not_a_suggested_amount", { code: "not_a_suggested_amount", values: c.suggestedAmounts });
  return issues.int(path, cents, AMOUNT_LIMITS) ? cents : undefined;
}

/** An event's number of seats: the campaign's rules (per order, left), then the API's (ticketCountInput). */
function checkTickets(issues: Issues, input: unknown, c: DonateFormCampaign): number | undefined {
  const path = ["tickets"];
  if (typeof input !== "string") return void issues.type(path, input, "string");
  const n = ticketCount(input);
  const { ticketsLeft, maxTickets } = campaignLimits(c);
  if (!Number.isInteger(n) || n < 1) return void issues.custom(path, n, "tickets_required", { code: "tickets_required" });
  if (n > maxTickets && ticketsLeft !== null && ticketsLeft < c.maxTicketsPerOrder)
    return void issues.custom(path, n, "tickets_over_available", { code: "tickets_over_available", maximum: ticketsLeft });
  if (n > maxTickets)
    return void issues.custom(path, n, "tickets_over_limit", { code: "tickets_over_limit", maximum: c.maxTicketsPerOrder });
  return issues.int(path, n, TICKETS_LIMITS) ? n : undefined;
}

/** The captcha's token when Turnstile is on: present (or why not: it didn't load), and of the API's length. */
function checkCaptcha(issues: Issues, input: unknown, context: DonateFormContext): string | undefined {
  const path = ["captchaToken"];
  if (input === null) {
    const code = context.captchaUnavailable ? "captcha_unavailable" : "captcha_required";
    return void issues.custom(path, input, code, { code });
  }
  if (typeof input !== "string") return void issues.type(path, input, "string");
  return issues.within(path, input, input.length, "string", 1, CAPTCHA_TOKEN_MAX) ? input : undefined;
}

/** The values as checked: the amount or the tickets as numbers, text trimmed. */
export type DonateFormOutput = Omit<DonateFormValues, "amount" | "tickets"> & {
  /** The gift in minor units (an event's is its tickets'; the form's value as it is). */
  amount: number | DonateFormValues["amount"];
  tickets: number | string;
};

/**
 * The rules for these values: a dedication only when the donor adds one, an address when the
 * campaign or the receipt profile asks for it, Gift Aid only when claimed, tickets only for
 * events, the captcha's token when Turnstile is on. Every field is checked and every problem
 * reported, field after field in the order of the form's values (the resolver shows each
 * field's first; the form focuses the first invalid field by FIELD_ORDER).
 */
export function donateFormSchema(c: DonateFormCampaign, values: DonateFormValues, context: DonateFormContext): FormCheck<DonateFormOutput> {
  const isEvent = c.type === "EVENT";
  const check = (v: DonateFormValues): FormCheckResult<DonateFormOutput> => {
    const issues = new Issues();
    if (!isRecord(v)) {
      issues.type([], v, "object");
      return { success: false, error: { issues: issues.list } };
    }
    const out = { ...v } as DonateFormOutput;
    if (isEvent) out.tickets = checkTickets(issues, v.tickets, c) ?? v.tickets;
    else out.amount = checkAmount(issues, v.amount, c, context.locale) ?? v.amount;
    issues.oneOf(["recurringInterval"], v.recurringInterval, ["ONCE", ...RECURRING_INTERVALS]);
    out.firstName = issues.text(["firstName"], v.firstName, TEXT_LIMITS.name, 1) ?? v.firstName;
    out.lastName = issues.text(["lastName"], v.lastName, TEXT_LIMITS.name, 1) ?? v.lastName;
    out.email = issues.email(["email"], v.email, true) ?? v.email;
    issues.boolean(["anonymous"], v.anonymous);
    out.message = issues.text(["message"], v.message, TEXT_LIMITS.message) ?? v.message;
    issues.boolean(["dedicate"], v.dedicate);
    if (values.dedicate && issues.object(["dedication"], v.dedication)) {
      const d = v.dedication;
      issues.oneOf(["dedication", "type"], d.type, ["IN_HONOR", "IN_MEMORY"]);
      const honoreeName = issues.text(["dedication", "honoreeName"], d.honoreeName, TEXT_LIMITS.honoreeName, 1);
      const notifyEmail = issues.email(["dedication", "notifyEmail"], d.notifyEmail, false);
      const message = issues.text(["dedication", "message"], d.message, TEXT_LIMITS.dedicationMessage);
      out.dedication = { ...d, honoreeName: honoreeName ?? d.honoreeName, notifyEmail: notifyEmail ?? "", message: message ?? d.message };
    }
    issues.boolean(["coverFees"], v.coverFees);
    issues.boolean(["remindIfUnfinished"], v.remindIfUnfinished);
    issues.boolean(["emailOptIn"], v.emailOptIn);
    if (asksAddress(c) && issues.object(["address"], v.address)) {
      const a = v.address;
      const line = (key: keyof typeof a, max: number, min = 0) => issues.text(["address", key], a[key], max, min) ?? a[key];
      const address = {
        line1: line("line1", TEXT_LIMITS.addressLine, 1),
        line2: line("line2", TEXT_LIMITS.addressLine),
        city: line("city", TEXT_LIMITS.city, 1),
        region: line("region", TEXT_LIMITS.region),
        postalCode: line("postalCode", TEXT_LIMITS.postalCode),
        country: a.country,
      };
      // The API's `country`: trimmed, required, upper-cased, then one of ISO 3166-1's codes.
      if (typeof a.country !== "string") issues.type(["address", "country"], a.country, "string");
      else {
        const country = a.country.trim().toUpperCase();
        issues.within(["address", "country"], country, country.length, "string", 1, null);
        if (isCountryCode(country)) address.country = country;
        else issues.custom(["address", "country"], country, "Must be an ISO 3166-1 alpha-2 country code");
      }
      out.address = address;
    }
    issues.boolean(["claimGiftAid"], v.claimGiftAid);
    if (offersGiftAid(c) && values.claimGiftAid && issues.object(["giftAid"], v.giftAid)) {
      const g = v.giftAid;
      const title = issues.text(["giftAid", "title"], g.title, TEXT_LIMITS.giftAidTitle);
      const house = issues.text(["giftAid", "houseNameOrNumber"], g.houseNameOrNumber, TEXT_LIMITS.houseNameOrNumber, 1);
      let postcode = issues.text(["giftAid", "postcode"], g.postcode, TEXT_LIMITS.postcode, 1);
      if (typeof g.postcode === "string" && g.postcode.trim().length < POSTCODE_MIN) {
        issues.within(["giftAid", "postcode"], g.postcode.trim(), g.postcode.trim().length, "string", POSTCODE_MIN, null);
        postcode = undefined;
      }
      out.giftAid = { title: title ?? g.title, houseNameOrNumber: house ?? g.houseNameOrNumber, postcode: postcode ?? g.postcode };
    }
    if (context.captcha) checkCaptcha(issues, v.captchaToken, context);
    return issues.list.length > 0 ? { success: false, error: { issues: issues.list } } : { success: true, data: out };
  };
  return { safeParse: check };
}

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
