import { fieldTexts } from "@/components/forms/issue-text";
import type { ApiErrorBody } from "./types";

const ALREADY_COMPLETE = "This payment is already complete";

type ConfirmAnswer = ApiErrorBody & { status?: string; failureReason?: string | null };

/** A sentence of the donate namespace's `sandbox` messages the card form shows. */
export type SandboxMessage = "declined" | "soldOut" | "cantComplete" | "rateLimited" | "notFound" | "serverError";

/**
 * What the sandbox card form does with POST /api/sandbox/payments/confirm's answer: a message of
 * its own (`key`, worded in the page's language), or the server's words (`text`) for a problem
 * only the server can explain.
 */
export type ConfirmOutcome =
  | { kind: "paid" }
  | { kind: "card"; key: SandboxMessage }
  | { kind: "card"; text: string }
  | { kind: "form"; key: SandboxMessage }
  | { kind: "form"; text: string };

export function confirmOutcome(status: number, json: ConfirmAnswer): ConfirmOutcome {
  const ok = status >= 200 && status < 300;
  // Declined: FAILED, or still PENDING with the reason when the donation keeps its tickets
  // (the same payment may be retried with another card until the hold expires).
  if (ok && (json.status === "FAILED" || (json.status === "PENDING" && json.failureReason))) return { kind: "card", key: "declined" };
  // SUCCEEDED (or still PENDING, which the thank-you page waits for), or paid by an earlier press.
  if (ok || (status === 409 && json.error === ALREADY_COMPLETE)) return { kind: "paid" };
  if (status === 400 && json.details?.fieldErrors?.cardNumber) {
    const texts = fieldTexts({ cardNumber: json.details.fieldErrors.cardNumber }, { cardNumber: json.details.codes?.cardNumber });
    return { kind: "card", text: texts.cardNumber };
  }
  if (status === 409) {
    if (json.error === "Sold out") return { kind: "form", key: "soldOut" };
    return json.error ? { kind: "form", text: `${json.error}.` } : { kind: "form", key: "cantComplete" };
  }
  if (status === 429) return { kind: "form", key: "rateLimited" };
  if (status === 404) return { kind: "form", key: "notFound" };
  return { kind: "form", key: "serverError" };
}
