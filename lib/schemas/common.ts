import { z } from "zod";
import { stripHtml } from "@/lib/html";
import { SLUG_PATTERN } from "@/lib/slug";
import { EMAIL_MAX } from "./donation-limits";

// The API keeps some messages in zod 3's words (`Number must be greater than or equal to 100`);
// zod 4 phrases them differently, so the messages of the common issues are set here, once.
z.config({
  customError: (iss) => {
    if (iss.code === "too_small" || iss.code === "too_big") {
      const small = iss.code === "too_small";
      const bound = String(small ? iss.minimum : iss.maximum);
      if (iss.origin === "number" || iss.origin === "int" || iss.origin === "bigint") {
        return `Number must be ${small ? "greater" : "less"} than ${iss.inclusive ? "or equal to " : ""}${bound}`;
      }
      const within = small ? "at least" : "at most";
      if (iss.origin === "string") return `String must contain ${within} ${bound} character(s)`;
      if (iss.origin === "array") return `Array must contain ${within} ${bound} element(s)`;
    }
    if (iss.code === "invalid_type") {
      if (iss.input === undefined) return "Required";
      if (iss.expected === "int") return "Expected integer, received float";
      return `Expected ${iss.expected}, received ${iss.input === null ? "null" : Array.isArray(iss.input) ? "array" : typeof iss.input}`;
    }
    return undefined;
  },
});

export const slugSchema = (min: number, max: number) =>
  z.string().min(min).max(max).regex(SLUG_PATTERN, "Only lower-case letters, digits and single hyphens between them");

/** Free text with HTML stripped on write; the length rule applies to the stripped text. */
export const plainText = (max: number, min = 0) =>
  z
    .string()
    .max(max * 10 + 10_000)
    .transform((s) => stripHtml(s).trim())
    .pipe(z.string().min(min).max(max));

/** Whether `s` is an absolute http(s) URL. */
export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

export const httpUrl = z.string().max(2048).refine(isHttpUrl, "Must be an http or https URL");

/**
 * An image address: an http(s) URL, or a path on this site ("/covers/winter-meals.svg", for the
 * images Goodfund ships). Never protocol-relative ("//host") and no backslash, which browsers
 * read as a slash.
 */
export const imageUrl = z
  .string()
  .max(2048)
  .refine((s) => {
    if (s.startsWith("/")) return /^\/(?![/\\])[^\s\\]*$/.test(s);
    return isHttpUrl(s);
  }, "Must be an http or https URL, or a path on this site starting with /");

export const hexColor = z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "Must be a hex colour like #1a7f5a or #fff");

export const email = z.string().trim().max(EMAIL_MAX).email("Invalid email address");

export const isoDateTime = z.iso
  .datetime({ offset: true, message: "Must be an ISO 8601 date-time" })
  // The UTC instant must keep a 4-digit year: Postgres has no year 0 and reads 5-digit years as
  // offsets (500), and years below 100 come back from the driver as 19xx/20xx.
  .refine((s) => {
    const t = Date.parse(s);
    if (Number.isNaN(t)) return true; // already reported by the format check
    const year = new Date(t).getUTCFullYear();
    return year >= 1000 && year <= 9999;
  }, "Must be between the years 1000 and 9999");

/** Money in cents: a positive integer within what Postgres' integer holds. */
export const cents = z.number().int().positive().max(2_000_000_000);

export const idParam = z.object({ id: z.string().min(1).max(100) });
export const orgParam = z.object({ idOrSlug: z.string().min(1).max(100) });

const intFromQuery = (min: number, max?: number) => {
  const n = z.coerce.number().int().min(min);
  return max === undefined ? n : n.max(max);
};

/** `page` ≥ 1 and `limit` 1–100, as query strings. */
export const pageQuery = {
  page: intFromQuery(1, 1_000_000).optional(),
  limit: intFromQuery(1, 100).optional(),
};

const issueValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One machine-readable reason a field was refused, with the values that explain it. */
export const issueCodeSchema = z
  .object({
    code: z.string().meta({
      description:
        "A validation issue code (`too_small`, `too_big`, `invalid_type`, `invalid_format`, `invalid_value`, `custom`, ...) " +
        "or a rule of the product (`amount_below_minimum`, `tickets_over_limit`, `not_a_suggested_amount`, `captcha_required`, ...)",
      examples: ["too_small", "tickets_over_limit"],
    }),
  })
  .catchall(z.union([issueValue, z.array(issueValue)]))
  .meta({
    id: "IssueCode",
    description: "The values the code refers to ride along, e.g. `minimum`, `maximum`, `inclusive`, `format`, `expected`, `values`.",
    examples: [
      { code: "too_small", origin: "number", minimum: 100, inclusive: true },
      { code: "tickets_over_limit", maximum: 10 },
    ],
  });

export const errorSchema = z
  .object({
    error: z.string(),
    status: z.number().int(),
    code: z
      .enum([
        "two_factor_required",
        "recent_two_factor_required",
        "too_many_two_factor_attempts",
        "donor_email_taken",
        "supporter_pages_closed",
      ])
      .optional()
      .meta({
        description:
          "Present on refusals a client acts on: `two_factor_required` (the organization requires a second factor this session has not passed), " +
          "`recent_two_factor_required` (a sensitive action needs a second factor within the last 15 minutes), " +
          "`too_many_two_factor_attempts` (wrong codes: wait for `Retry-After`), " +
          "`donor_email_taken` (another donor of the organization has this email: merge instead), " +
          "`supporter_pages_closed` (the campaign is not taking fundraiser pages: a draft, paused or ended one, or pages are off).",
      }),
    details: z
      .object({
        fieldErrors: z.record(z.string(), z.array(z.string())),
        formErrors: z.array(z.string()),
        codes: z.record(z.string(), z.array(issueCodeSchema)).meta({
          description: 'The codes of the messages above, per field (dotted paths for nested fields; "" for form-level messages)',
        }),
      })
      .optional(),
  })
  .meta({ id: "Error" });

export const pagePagination = z
  .object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), hasMore: z.boolean() })
  .meta({ id: "PagePagination" });

export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
