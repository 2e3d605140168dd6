import type { z } from "zod";
import { AppError, EXPOSED_ERROR_CODES, issueCodeOf, type AppErrorCode, type IssueCode, type ValidationDetails } from "@/lib/errors";

export type { ValidationDetails } from "@/lib/errors";

/** An HTTP error answer: its status, the message, validation details and extra headers (`Retry-After`, `Allow`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: ValidationDetails,
    readonly headers?: Record<string, string>,
    /** A machine-readable reason the body carries as `code` (only the codes in EXPOSED_ERROR_CODES). */
    readonly code?: AppErrorCode,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** The HTTP status of every domain error code: the one place a code becomes a status. */
export const APP_ERROR_STATUS: Record<AppErrorCode, number> = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  two_factor_required: 403,
  recent_two_factor_required: 403,
  not_found: 404,
  organization_not_found: 404,
  campaign_not_found: 404,
  donation_not_found: 404,
  member_not_found: 404,
  recurring_plan_not_found: 404,
  payment_not_found: 404,
  subscription_not_found: 404,
  unsubscribe_link_not_found: 404,
  account_not_found: 404,
  donor_not_found: 404,
  donor_request_not_found: 404,
  passkey_not_found: 404,
  fundraiser_not_found: 404,
  session_not_found: 404,
  import_not_found: 404,
  ticket_not_found: 404,
  conflict: 409,
  sold_out: 409,
  not_accepting_donations: 409,
  payment_already_complete: 409,
  payment_canceled: 409,
  first_payment_pending: 409,
  donation_not_refundable: 409,
  donation_not_editable: 409,
  donation_already_refunded: 409,
  recurring_plan_already_canceled: 409,
  recurring_plan_without_subscription: 409,
  recurring_plan_not_active: 409,
  already_a_member: 409,
  last_owner: 409,
  organization_slug_taken: 409,
  currency_locked: 409,
  custom_domain_taken: 409,
  domain_not_verified: 409,
  campaign_slug_taken: 409,
  campaign_status_change_not_allowed: 409,
  campaign_type_locked: 409,
  campaign_parent_locked: 409,
  campaign_not_deletable: 409,
  supporter_pages_closed: 409,
  not_a_supporter_page: 409,
  webhook_endpoint_limit: 409,
  webhook_endpoint_disabled: 409,
  donor_request_already_decided: 409,
  donor_email_taken: 409,
  donor_erased: 409,
  donor_tags_limit: 409,
  two_factor_not_enabled: 409,
  two_factor_already_enabled: 409,
  already_checked_in: 409,
  ticket_not_valid: 409,
  rate_limited: 429,
  too_many_two_factor_attempts: 429,
  too_many_failed_payments: 429,
  too_many_held_tickets: 429,
  processor_unavailable: 502,
  captcha_unavailable: 503,
  service_unavailable: 503,
};

/** A domain error as the API answers it: same message, details and headers, the status its code maps to. */
export function fromAppError(err: AppError): ApiError {
  const d = err.details;
  const details = d && { fieldErrors: d.fieldErrors, formErrors: d.formErrors, codes: d.codes ?? {} };
  return new ApiError(
    APP_ERROR_STATUS[err.code],
    err.message,
    details,
    err.headers,
    EXPOSED_ERROR_CODES.has(err.code) ? err.code : undefined,
  );
}

export const unauthorized = () => new ApiError(401, "Unauthorized");
export const forbidden = () => new ApiError(403, "Forbidden");
export const notFound = (what = "Not found") => new ApiError(404, what);

/** A 400 `Validation failed` with errors on named fields (dotted paths for nested ones) and their codes. */
export function validationError(
  fieldErrors: Record<string, string[]>,
  formErrors: string[] = [],
  codes: Record<string, IssueCode[]> = {},
): ApiError {
  return new ApiError(400, "Validation failed", { fieldErrors, formErrors, codes });
}

/**
 * zod issues flattened the way zod's `flatten()` does, but with dotted names for nested fields,
 * plus each message's code and values under `codes` (field "" for form-level issues).
 */
export function flattenIssues(issues: z.core.$ZodIssue[], prefix = ""): Required<ValidationDetails> {
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  const codes: Record<string, IssueCode[]> = {};
  for (const issue of issues) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
    if (!key) formErrors.push(issue.message);
    else (fieldErrors[key] ??= []).push(issue.message);
    (codes[key] ??= []).push(issueCodeOf(issue));
  }
  return { fieldErrors, formErrors, codes };
}
