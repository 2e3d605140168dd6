import type { z } from "zod";

/**
 * Domain errors: what services, queries and adapters throw when a request cannot be carried out.
 * Each has a stable snake_case `code` (clients and the UI key on it, never on the message) and the
 * human message the API answers with. Only `lib/api` decides which HTTP status a code becomes.
 */

/** A value an issue carries for the UI to phrase its message (`minimum: 100`, `values: [2500, 5000]`). */
export type IssueValue = string | number | boolean | null;

/**
 * One machine-readable reason a field was refused: a zod issue code (`too_small`, `invalid_type`,
 * `invalid_format`, `invalid_value`, `custom`, ...) or a domain code (`amount_below_minimum`,
 * `tickets_over_limit`, ...), with the values that explain it.
 */
export type IssueCode = { code: string } & Record<string, IssueValue | IssueValue[]>;

/** Per-field messages (dotted paths for nested fields), form-level messages and their codes ("" is form-level). */
export type ValidationDetails = {
  fieldErrors: Record<string, string[]>;
  formErrors: string[];
  codes?: Record<string, IssueCode[]>;
};

/** Every code a domain error may carry; `lib/api` gives each its HTTP status. */
export const APP_ERROR_CODES = [
  // 400
  "validation_failed",
  // 401, 403
  "unauthorized",
  "forbidden",
  "two_factor_required",
  "recent_two_factor_required",
  // 404
  "not_found",
  "organization_not_found",
  "campaign_not_found",
  "donation_not_found",
  "member_not_found",
  "recurring_plan_not_found",
  "payment_not_found",
  "subscription_not_found",
  "unsubscribe_link_not_found",
  "account_not_found",
  "donor_not_found",
  "donor_request_not_found",
  "passkey_not_found",
  "session_not_found",
  "fundraiser_not_found",
  "import_not_found",
  "ticket_not_found",
  // 409
  "conflict",
  "sold_out",
  "not_accepting_donations",
  "payment_already_complete",
  "payment_canceled",
  "first_payment_pending",
  "donation_not_refundable",
  "donation_already_refunded",
  "donation_not_editable",
  "recurring_plan_already_canceled",
  "recurring_plan_without_subscription",
  "recurring_plan_not_active",
  "already_a_member",
  "last_owner",
  "organization_slug_taken",
  "currency_locked",
  "custom_domain_taken",
  "domain_not_verified",
  "campaign_slug_taken",
  "campaign_status_change_not_allowed",
  "campaign_type_locked",
  "campaign_parent_locked",
  "campaign_not_deletable",
  "supporter_pages_closed",
  "not_a_supporter_page",
  "webhook_endpoint_limit",
  "webhook_endpoint_disabled",
  "donor_request_already_decided",
  "donor_email_taken",
  "donor_erased",
  "donor_tags_limit",
  "two_factor_not_enabled",
  "two_factor_already_enabled",
  "already_checked_in",
  "ticket_not_valid",
  // 429
  "rate_limited",
  "too_many_two_factor_attempts",
  "too_many_failed_payments",
  "too_many_held_tickets",
  // 502, 503
  "processor_unavailable",
  "captcha_unavailable",
  "service_unavailable",
] as const;

export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

/**
 * Codes the error body carries as `code` (beside `error` and `status`), so a client can tell these
 * refusals from a plain 403 or 429 and act on them (ask for the second factor, wait).
 */
export const EXPOSED_ERROR_CODES: ReadonlySet<AppErrorCode> = new Set<AppErrorCode>([
  "two_factor_required",
  "recent_two_factor_required",
  "too_many_two_factor_attempts",
  "donor_email_taken",
  "supporter_pages_closed",
  "already_checked_in",
  "ticket_not_valid",
]);

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details?: ValidationDetails,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export type NotFoundCode = Extract<AppErrorCode, "not_found" | `${string}_not_found`>;

export const notFound = (code: NotFoundCode = "not_found", message = "Not found") => new AppError(code, message);

/** A request that clashes with the current state of things (a 409 over HTTP). */
export const conflict = (code: AppErrorCode, message: string) => new AppError(code, message);

export const processorUnavailable = () => new AppError("processor_unavailable", "Payment processor unavailable, please try again");

/** `Validation failed` with messages per field and form-level, and their codes. */
export function validationFailed(
  fieldErrors: Record<string, string[]>,
  formErrors: string[] = [],
  codes: Record<string, IssueCode[]> = {},
): AppError {
  return new AppError("validation_failed", "Validation failed", { fieldErrors, formErrors, codes });
}

/** `Validation failed` on one field: its message, and the code (with values) the UI phrases it from. */
export function fieldError(field: string, message: string, code: string, values: Record<string, IssueValue | IssueValue[]> = {}): AppError {
  return validationFailed({ [field]: [message] }, [], { [field]: [{ ...values, code }] });
}

/**
 * Collects the failures of rules checked together so all are reported at once, each under its
 * field ("" for the form as a whole): `const issues = new Issues(); ...; issues.throwIfAny()`.
 */
export class Issues {
  private readonly fieldErrors: Record<string, string[]> = {};
  private readonly formErrors: string[] = [];
  private readonly codes: Record<string, IssueCode[]> = {};

  add(field: string, message: string, code: string, values: Record<string, IssueValue | IssueValue[]> = {}): void {
    if (field) (this.fieldErrors[field] ??= []).push(message);
    else this.formErrors.push(message);
    (this.codes[field] ??= []).push({ ...values, code });
  }

  get empty(): boolean {
    return Object.keys(this.codes).length === 0;
  }

  throwIfAny(): void {
    if (!this.empty) throw validationFailed(this.fieldErrors, this.formErrors, this.codes);
  }
}

const primitive = (v: unknown): v is IssueValue => v === null || ["string", "number", "boolean"].includes(typeof v);

/** The values of a zod issue the UI may phrase a message from (bigints as numbers; never the input). */
const ISSUE_VALUE_KEYS = [
  "expected",
  "origin",
  "minimum",
  "maximum",
  "inclusive",
  "exact",
  "format",
  "pattern",
  "prefix",
  "suffix",
  "includes",
  "divisor",
  "keys",
  "values",
] as const;

/**
 * A zod issue's machine-readable form: its code and values. A refinement's primitive `params`
 * ride along, and `params.code` names a domain rule in place of `custom`.
 */
export function issueCodeOf(issue: z.core.$ZodIssue): IssueCode {
  const out: IssueCode = { code: issue.code };
  const source = issue as unknown as Record<string, unknown>;
  const put = (key: string, v: unknown) => {
    const value = typeof v === "bigint" ? Number(v) : v;
    if (primitive(value)) out[key] = value;
    else if (Array.isArray(value) && value.every(primitive)) out[key] = value;
    else if (Array.isArray(value)) out[key] = value.map((x) => (typeof x === "bigint" ? Number(x) : primitive(x) ? x : String(x)));
  };
  for (const key of ISSUE_VALUE_KEYS) if (key in source) put(key, source[key]);
  if (issue.code === "custom" && issue.params) {
    for (const [key, v] of Object.entries(issue.params)) if (key !== "code" || typeof v === "string") put(key, v);
  }
  return out;
}
