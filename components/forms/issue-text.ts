import type { IssueCode } from "@/lib/errors";
import { formatCount } from "@/components/donate/format";

export type { IssueCode };

/** How one form words a field's problems, beyond the general sentences below. */
export type FieldWords = {
  /** The field holds an amount of money in cents: its limits are written as money. */
  money?: boolean;
  /** What an empty required field says ("Enter your first name"); "Required" otherwise. */
  required?: string;
  /** The sentence for a lower limit, given the limit as written ("The minimum gift is $5.00"). */
  atLeast?: (limit: string) => string;
  /** The sentence for an upper limit, given the limit as written. */
  atMost?: (limit: string) => string;
};

export type IssueTextOptions = {
  /** The form's words per field (dotted paths; a list's items share the list's words). */
  fields?: Record<string, FieldWords>;
  /** Formats cents for money fields; plain numbers otherwise. */
  money?: (cents: number) => string;
};

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function wordsOf(field: string, fields: Record<string, FieldWords> | undefined): FieldWords {
  if (!fields) return {};
  // "suggestedAmounts.2" takes the words of "suggestedAmounts".
  return fields[field] ?? fields[field.replace(/\.\d+$/, "")] ?? {};
}

/**
 * One problem with one field, in a person's words: the issue's code and values (zod's own codes,
 * or the API's domain codes) decide the sentence; money is written as money. An unknown code, or
 * one whose wording belongs to the schema (a pattern's rule, a refinement), says `fallback`: the
 * message the server or the schema gave.
 */
export function issueText(field: string, issue: IssueCode, fallback: string, opts: IssueTextOptions = {}): string {
  const words = wordsOf(field, opts.fields);
  const amount = (n: number) => (words.money && opts.money ? opts.money(n) : formatCount(n));
  const required = words.required ?? "Required";
  const atLeast = (n: number) => (words.atLeast ? words.atLeast(amount(n)) : `Must be at least ${amount(n)}`);
  const atMost = (n: number) => (words.atMost ? words.atMost(amount(n)) : `Must be at most ${amount(n)}`);
  const min = num(issue.minimum);
  const max = num(issue.maximum);

  switch (issue.code) {
    case "too_small":
      if (min === null) return fallback;
      if (issue.origin === "string") return min <= 1 ? required : `Use at least ${formatCount(min)} characters`;
      if (issue.origin === "array") return `Add at least ${formatCount(min)}`;
      if (issue.inclusive === false) return min === 0 ? "Must be more than zero" : `Must be more than ${amount(min)}`;
      return atLeast(min);
    case "too_big":
      if (max === null) return fallback;
      if (issue.origin === "string") return `Use at most ${formatCount(max)} characters`;
      if (issue.origin === "array") return `Use at most ${formatCount(max)}`;
      if (issue.inclusive === false) return `Must be less than ${amount(max)}`;
      return atMost(max);
    case "invalid_type":
      return required;
    case "invalid_format":
      if (issue.format === "email") return "Enter an email address like name@example.com";
      return fallback;
    case "invalid_value":
      return "Choose one of the options";
    case "not_multiple_of":
      return issue.divisor === 1 ? "Enter a whole number" : fallback;
    // The API's own rules
    case "amount_below_minimum":
      return min === null ? fallback : atLeast(min);
    case "not_a_suggested_amount":
      return "Choose one of the suggested amounts";
    case "tickets_required":
      return "Choose at least 1 ticket";
    case "tickets_over_limit":
      return max === null ? fallback : `You can buy up to ${formatCount(max)} tickets at once`;
    case "tickets_over_available":
      return max === null ? fallback : `Only ${formatCount(max)} tickets are left`;
    case "captcha_required":
      return "Complete the verification check above the button";
    case "captcha_unavailable":
      return "The verification check couldn't load. Reload the page, or allow challenges.cloudflare.com, and try again.";
    case "captcha_invalid":
      return "The verification check expired. Complete it again, then continue.";
    case "end_not_after_start":
      return "Must be after the start";
    case "required_for_event":
      return "Required";
    case "capacity_below_sold":
      return min === null ? fallback : `Cannot be below the ${formatCount(min)} tickets already sold`;
    default:
      return fallback;
  }
}

/**
 * The first problem of each field, worded: `codes` (from the API's `details.codes`, or zod issues
 * turned into codes) beside the messages they came with, which remain the fallback.
 */
export function fieldTexts(
  messages: Record<string, string[] | undefined>,
  codes: Record<string, IssueCode[] | undefined> = {},
  opts: IssueTextOptions = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of new Set([...Object.keys(messages), ...Object.keys(codes)])) {
    if (field === "") continue;
    const message = messages[field]?.[0] ?? "Check this field";
    const code = codes[field]?.[0];
    out[field] = code ? issueText(field, code, message, opts) : message;
  }
  return out;
}
