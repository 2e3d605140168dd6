import type { IssueCode } from "@/lib/errors";
import type { Messages } from "@/lib/i18n/catalog";
import { formatCount } from "./format";

type ErrorKey = keyof Messages["donate"]["errors"];

/** A translator over the `donate.errors` messages (`useTranslations("donate.errors")`, or `translator(locale, "donate.errors")`). */
export type ErrorsTranslator = (key: ErrorKey, values?: Record<string, string | number>) => string;

/** What the donate form words its fields' problems with: the page's language and money. */
export type DonateWording = {
  /** One problem with one field, in the donor's language; `fallback` (the server's message) for a code of its own. */
  text: (field: string, issue: IssueCode, fallback: string) => string;
  /** The first problem of each field, worded: the API's `details.fieldErrors` beside its `details.codes`. */
  fieldTexts: (messages: Record<string, string[] | undefined>, codes?: Record<string, IssueCode[] | undefined>) => Record<string, string>;
};

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** What an empty required field says. */
const REQUIRED: Record<string, ErrorKey> = {
  firstName: "firstName",
  lastName: "lastName",
  email: "email",
  "dedication.honoreeName": "honoree",
};

/**
 * The donate form's wording of the API's issue codes (its own rules and zod's) and of the form's
 * own (a custom amount it can't read), in the page's language: `money` writes an amount (whole
 * thousands without cents), `locale` is the page's `Intl` tag for counts and sample amounts.
 */
export function donateWording(t: ErrorsTranslator, money: (minor: number) => string, locale: string): DonateWording {
  const count = (n: number) => formatCount(n, locale);
  const decimalsExample = (decimals: number) =>
    new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(25.5);

  function text(field: string, issue: IssueCode, fallback: string): string {
    const isMoney = field === "amount";
    const required = REQUIRED[field] ? t(REQUIRED[field]) : t("required");
    const atLeast = (n: number) => (isMoney ? t("amountMin", { amount: money(n) }) : t("atLeast", { value: count(n) }));
    const atMost = (n: number) => (isMoney ? t("amountMax", { amount: money(n) }) : t("atMost", { value: count(n) }));
    const min = num(issue.minimum);
    const max = num(issue.maximum);
    const decimals = num(issue.decimals) ?? 2;

    switch (issue.code) {
      case "too_small":
        if (min === null) return fallback;
        if (issue.origin === "string") return min <= 1 ? required : t("minChars", { count: min });
        if (issue.origin === "array") return fallback;
        if (issue.inclusive === false && min === 0) return t("moreThanZero");
        return atLeast(min);
      case "too_big":
        if (max === null) return fallback;
        if (issue.origin === "string") return t("maxChars", { count: max });
        if (issue.origin === "array") return fallback;
        return atMost(max);
      case "invalid_type":
        return required;
      case "invalid_format":
        return issue.format === "email" ? t("emailFormat") : fallback;
      case "invalid_value":
        return t("choose");
      case "not_multiple_of":
        return issue.divisor === 1 ? t("wholeNumber") : fallback;
      // The API's own rules
      case "amount_below_minimum":
        return min === null ? fallback : atLeast(min);
      case "not_a_suggested_amount":
        return t("notSuggested");
      case "tickets_required":
        return t("ticketsRequired");
      case "tickets_over_limit":
        return max === null ? fallback : t("ticketsOverLimit", { count: max });
      case "tickets_over_available":
        return max === null ? fallback : t("ticketsOverAvailable", { count: max });
      case "captcha_required":
        return t("captchaRequired");
      case "captcha_unavailable":
        return t("captchaUnavailable");
      case "captcha_invalid":
        return t("captchaInvalid");
      // A custom amount the form can't read (components/donate/donate-schema.ts)
      case "amount_empty":
        return t("amountEnter");
      case "amount_negative":
        return t("amountPositive");
      case "amount_unreadable":
        return decimals === 0
          ? t("amountWhole", { example: count(5000).replace(/\D/g, "") })
          : t("amountFormat", { whole: count(25), example: decimalsExample(decimals) });
      case "amount_too_precise":
        return decimals === 0 ? t("amountNoDecimals") : t("amountDecimals", { decimals });
      case "amount_too_large":
        return t("amountTooLarge");
      default:
        return fallback;
    }
  }

  function fieldTexts(messages: Record<string, string[] | undefined>, codes: Record<string, IssueCode[] | undefined> = {}) {
    const out: Record<string, string> = {};
    for (const field of new Set([...Object.keys(messages), ...Object.keys(codes)])) {
      if (field === "") continue;
      const message = messages[field]?.[0] ?? t("check");
      const code = codes[field]?.[0];
      out[field] = code ? text(field, code, message) : message;
    }
    return out;
  }

  return { text, fieldTexts };
}
