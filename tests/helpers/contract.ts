import { expect } from "vitest";
import type { ApiResponse } from "./api";

export function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v)?.slice(0, 300) ?? String(v);
  } catch {
    return String(v);
  }
}

/**
 * Whatever a client sent, the answer is below 500, carries X-Request-Id, and a non-2xx body is
 * exactly the API's error shape `{ error, status, details? }` (no extra keys, `details` only
 * on a 400 `Validation failed`, with a code for every message, `Retry-After` on 429, never a
 * stack trace or SQL text).
 */
export function assertContractResponse(res: ApiResponse, input: unknown) {
  const where = `input ${safeJson(input)} → ${res.status} ${res.text.slice(0, 500)}`;
  expect(res.status, where).toBeLessThan(500);
  expect(res.headers.get("x-request-id"), where).toBeTruthy();
  if (res.status >= 200 && res.status < 300) return;
  const body = res.body;
  expect(body !== null && typeof body === "object" && !Array.isArray(body), where).toBe(true);
  const keys = Object.keys(body);
  expect(
    ["error", "status"].every((k) => keys.includes(k)),
    where,
  ).toBe(true);
  expect(
    keys.every((k) => ["error", "status", "details"].includes(k)),
    where,
  ).toBe(true);
  expect(typeof body.error, where).toBe("string");
  expect(body.error.length, where).toBeGreaterThan(0);
  expect(body.status, where).toBe(res.status);
  if ("details" in body) {
    const d = body.details;
    expect(d !== null && typeof d === "object", where).toBe(true);
    expect(Object.keys(d).sort(), where).toEqual(["codes", "fieldErrors", "formErrors"]);
    expect(Array.isArray(d.formErrors) && d.formErrors.every((m: unknown) => typeof m === "string"), where).toBe(true);
    expect(d.fieldErrors !== null && typeof d.fieldErrors === "object" && !Array.isArray(d.fieldErrors), where).toBe(true);
    for (const messages of Object.values(d.fieldErrors)) {
      expect(Array.isArray(messages) && (messages as unknown[]).length > 0, where).toBe(true);
      expect(
        (messages as unknown[]).every((m) => typeof m === "string"),
        where,
      ).toBe(true);
    }
    expect(d.codes !== null && typeof d.codes === "object" && !Array.isArray(d.codes), where).toBe(true);
    const codedFields = Object.keys(d.fieldErrors).concat(d.formErrors.length > 0 ? [""] : []);
    expect(Object.keys(d.codes).sort(), where).toEqual(codedFields.sort());
    for (const [field, codes] of Object.entries(d.codes as Record<string, unknown[]>)) {
      const messages = field ? d.fieldErrors[field] : d.formErrors;
      expect(codes.length, where).toBe(messages.length);
      expect(
        codes.every((c) => c !== null && typeof c === "object" && typeof (c as { code?: unknown }).code === "string"),
        where,
      ).toBe(true);
    }
    expect(body.error, where).toBe("Validation failed");
    expect(res.status, where).toBe(400);
  }
  if (res.status === 429) expect(res.headers.get("retry-after"), where).toBeTruthy();
  expect(res.text, where).not.toMatch(/\bat .+:\d+:\d+|select .* from|insert into|violates|ZodError/i);
}

/** Every field of a Donation as the API serializes it. */
export const DONATION_FIELDS = [
  "id",
  "orgId",
  "campaignId",
  "donorId",
  "amount",
  "currency",
  "status",
  "email",
  "firstName",
  "lastName",
  "anonymous",
  "message",
  "dedication",
  "recurringInterval",
  "recurringPlanId",
  "subscriptionId",
  "isRenewal",
  "tickets",
  "coverFees",
  "feeCents",
  "matchedAmountCents",
  "paymentIntentId",
  "failureReason",
  "disputeReason",
  "source",
  "method",
  "reference",
  "externalId",
  "advantageCents",
  "deductibleAmountCents",
  "receiptNumber",
  "receiptStatus",
  "giftAid",
  "voidReason",
  "voidedAt",
  "upsell",
  "createdAt",
  "updatedAt",
  "succeededAt",
] as const;

/** A resource as its create answers it: a string ID, each of `nullable` present and null, and ISO 8601 timestamps. */
export function expectNewRecord(record: Record<string, any>, nullable: readonly string[]) {
  expect(record.id).toEqual(expect.any(String));
  for (const field of nullable) {
    expect(record, field).toHaveProperty(field);
    expect(record[field], field).toBeNull();
  }
  expect(new Date(record.createdAt).toISOString()).toBe(record.createdAt);
  expect(new Date(record.updatedAt).toISOString()).toBe(record.updatedAt);
}
