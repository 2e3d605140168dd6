/**
 * Domain errors (lib/errors.ts) and how the API answers them: every code's HTTP status, the body
 * and headers a domain error becomes, and the machine-readable `codes` of validation details.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { APP_ERROR_STATUS, flattenIssues } from "@/lib/api/errors";
import { errorResponse } from "@/lib/api/respond";
import { toApiError } from "@/lib/api/route";
import {
  APP_ERROR_CODES,
  AppError,
  conflict,
  fieldError,
  Issues,
  notFound,
  processorUnavailable,
  validationFailed,
  type AppErrorCode,
} from "@/lib/errors";
import { createDonationBody } from "@/lib/schemas/donations";

/** The status each code answers, stated here independently of the table in lib/api. */
const EXPECTED_STATUS: Record<AppErrorCode, number> = {
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
  ticket_not_found: 404,
  already_checked_in: 409,
  ticket_not_valid: 409,
  donor_request_not_found: 404,
  passkey_not_found: 404,
  fundraiser_not_found: 404,
  session_not_found: 404,
  import_not_found: 404,
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
  rate_limited: 429,
  too_many_two_factor_attempts: 429,
  too_many_failed_payments: 429,
  too_many_held_tickets: 429,
  processor_unavailable: 502,
  captcha_unavailable: 503,
  service_unavailable: 503,
};

async function answer(err: unknown) {
  const res = errorResponse(toApiError(err, "req-test"));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe("AppError codes → HTTP status", () => {
  it("maps every code, and only the known codes", () => {
    expect(Object.keys(APP_ERROR_STATUS).sort()).toEqual([...APP_ERROR_CODES].sort());
    expect(new Set(APP_ERROR_CODES).size).toBe(APP_ERROR_CODES.length);
  });

  it.each(APP_ERROR_CODES.map((code) => [code, EXPECTED_STATUS[code]] as const))("%s answers %i", async (code, status) => {
    expect(APP_ERROR_STATUS[code]).toBe(status);
    const res = await answer(new AppError(code, "Something specific"));
    expect(res.status).toBe(status);
    // The codes a client acts on (ask for the second factor, wait, pick another email) ride in the body as `code`; the others stay internal.
    const exposed = [
      "two_factor_required",
      "recent_two_factor_required",
      "too_many_two_factor_attempts",
      "donor_email_taken",
      "supporter_pages_closed",
      "already_checked_in",
      "ticket_not_valid",
    ].includes(code);
    expect(JSON.parse(res.text)).toEqual(exposed ? { error: "Something specific", status, code } : { error: "Something specific", status });
  });

  it("codes are stable snake_case", () => {
    for (const code of APP_ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it("keeps the message byte for byte and the error shape { error, status }", async () => {
    expect((await answer(notFound("campaign_not_found", "Campaign not found"))).text).toBe('{"error":"Campaign not found","status":404}');
    expect((await answer(conflict("sold_out", "Sold out"))).text).toBe('{"error":"Sold out","status":409}');
    expect((await answer(processorUnavailable())).text).toBe('{"error":"Payment processor unavailable, please try again","status":502}');
    expect((await answer(notFound())).text).toBe('{"error":"Not found","status":404}');
  });

  it("carries the error's headers (Retry-After on a 429 and a 503)", async () => {
    const limited = await answer(
      new AppError("too_many_failed_payments", "Too many failed payments, try again later", undefined, { "Retry-After": "42" }),
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("42");
    expect(limited.text).toBe('{"error":"Too many failed payments, try again later","status":429}');
    const captcha = await answer(
      new AppError("captcha_unavailable", "Captcha verification unavailable, please try again", undefined, { "Retry-After": "5" }),
    );
    expect(captcha.status).toBe(503);
    expect(captcha.headers.get("retry-after")).toBe("5");
  });

  it("answers a validation failure with fieldErrors, formErrors and codes", async () => {
    const res = await answer(fieldError("tickets", "At most 4 tickets per order", "tickets_over_limit", { maximum: 4 }));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      error: "Validation failed",
      status: 400,
      details: {
        fieldErrors: { tickets: ["At most 4 tickets per order"] },
        formErrors: [],
        codes: { tickets: [{ code: "tickets_over_limit", maximum: 4 }] },
      },
    });
  });

  it("gives validation details without codes an empty codes object", async () => {
    const res = await answer(new AppError("validation_failed", "Validation failed", { fieldErrors: { a: ["Bad"] }, formErrors: [] }));
    expect(JSON.parse(res.text).details).toEqual({ fieldErrors: { a: ["Bad"] }, formErrors: [], codes: {} });
  });

  it("still answers 500 for anything else, without its message", async () => {
    const res = await answer(new Error("select * from secrets"));
    expect(res.status).toBe(500);
    expect(res.text).toBe('{"error":"Internal server error","status":500}');
  });
});

describe("validation details codes", () => {
  const donation = { campaignId: "cmp_1", amount: 2500, email: "ada@example.org" };
  const codesOf = (input: unknown) => {
    const parsed = createDonationBody.safeParse(input);
    expect(parsed.success).toBe(false);
    return flattenIssues(parsed.success ? [] : parsed.error.issues);
  };

  it("an amount of 50 is too_small with minimum 100, and keeps the message", () => {
    const details = codesOf({ ...donation, amount: 50 });
    expect(details.fieldErrors.amount).toEqual(["Number must be greater than or equal to 100"]);
    expect(details.codes.amount).toEqual([{ code: "too_small", origin: "number", minimum: 100, inclusive: true }]);
  });

  it("a missing field is invalid_type with what was expected; a bad email is invalid_format", () => {
    const missing = codesOf({ amount: 2500, email: "ada@example.org" });
    expect(missing.codes.campaignId).toEqual([{ code: "invalid_type", expected: "string" }]);
    const badEmail = codesOf({ ...donation, email: "not an email" });
    expect(badEmail.codes.email).toEqual([expect.objectContaining({ code: "invalid_format", format: "email" })]);
  });

  it("a value outside an enum is invalid_value with the allowed values", () => {
    const details = codesOf({ ...donation, recurringInterval: "DAY" });
    expect(details.codes.recurringInterval).toEqual([{ code: "invalid_value", values: ["WEEK", "MONTH", "QUARTER", "YEAR"] }]);
  });

  it('keeps one code per message, in order, with dotted paths and "" for form-level issues', () => {
    const schema = z
      .object({ a: z.object({ b: z.string().max(2) }), n: z.number().int().max(10) })
      .refine((v) => v.n > 5, { message: "n must exceed 5", params: { code: "n_too_low", minimum: 5 } });
    const parsed = schema.safeParse({ a: { b: "abc" }, n: 3 });
    expect(parsed.success).toBe(false);
    const issues = parsed.success ? [] : parsed.error.issues;
    const details = flattenIssues(issues);
    expect(details.fieldErrors).toEqual({ "a.b": ["String must contain at most 2 character(s)"] });
    expect(details.codes["a.b"]).toEqual([{ code: "too_big", origin: "string", maximum: 2, inclusive: true }]);
    // The refine runs only when the object parsed; a clean object shows the form-level issue.
    const form = flattenIssues(schema.safeParse({ a: { b: "ab" }, n: 3 }).error!.issues);
    expect(form.formErrors).toEqual(["n must exceed 5"]);
    expect(form.codes[""]).toEqual([{ code: "n_too_low", minimum: 5 }]);
  });

  it("a refinement without params is custom", () => {
    const schema = z.string().refine((s) => s.startsWith("x"), "Must start with x");
    const details = flattenIssues(schema.safeParse("y").error!.issues);
    expect(details.codes[""]).toEqual([{ code: "custom" }]);
  });

  it("Issues collects every failure with its code; none throws nothing", () => {
    const none = new Issues();
    expect(() => none.throwIfAny()).not.toThrow();
    const issues = new Issues();
    issues.add("amount", "Number must be greater than or equal to 1000", "amount_below_minimum", { minimum: 1000 });
    issues.add("amount", "Choose one of the suggested amounts: 1000, 2500", "not_a_suggested_amount", { values: [1000, 2500] });
    issues.add("", "Something about the whole form", "form_rule");
    let thrown: unknown;
    try {
      issues.throwIfAny();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({
      code: "validation_failed",
      message: "Validation failed",
      details: {
        fieldErrors: { amount: ["Number must be greater than or equal to 1000", "Choose one of the suggested amounts: 1000, 2500"] },
        formErrors: ["Something about the whole form"],
        codes: {
          amount: [
            { code: "amount_below_minimum", minimum: 1000 },
            { code: "not_a_suggested_amount", values: [1000, 2500] },
          ],
          "": [{ code: "form_rule" }],
        },
      },
    });
  });

  it("validationFailed keeps the messages it is given", () => {
    const err = validationFailed({ interval: ["Too many"] }, [], { interval: [{ code: "too_many_buckets", maximum: 1000 }] });
    expect(err.details).toEqual({
      fieldErrors: { interval: ["Too many"] },
      formErrors: [],
      codes: { interval: [{ code: "too_many_buckets", maximum: 1000 }] },
    });
  });
});
