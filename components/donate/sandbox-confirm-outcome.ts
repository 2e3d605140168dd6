import { fieldTexts } from "@/components/forms/issue-text";
import type { ApiErrorBody } from "./types";

export const DECLINED = "Your card was declined.";
const ALREADY_COMPLETE = "This payment is already complete";

type ConfirmAnswer = ApiErrorBody & { status?: string; failureReason?: string | null };

/** What the sandbox card form does with POST /api/sandbox/payments/confirm's answer. */
export type ConfirmOutcome = { kind: "paid" } | { kind: "card"; text: string } | { kind: "form"; text: string };

export function confirmOutcome(status: number, json: ConfirmAnswer): ConfirmOutcome {
  const ok = status >= 200 && status < 300;
  // Declined: FAILED, or still PENDING with the reason when the donation keeps its tickets
  // (the same payment may be retried with another card until the hold expires).
  if (ok && (json.status === "FAILED" || (json.status === "PENDING" && json.failureReason))) {
    return { kind: "card", text: json.failureReason || DECLINED };
  }
  // SUCCEEDED (or still PENDING, which the thank-you page waits for), or paid by an earlier press.
  if (ok || (status === 409 && json.error === ALREADY_COMPLETE)) return { kind: "paid" };
  if (status === 400 && json.details?.fieldErrors?.cardNumber) {
    const texts = fieldTexts({ cardNumber: json.details.fieldErrors.cardNumber }, { cardNumber: json.details.codes?.cardNumber });
    return { kind: "card", text: texts.cardNumber };
  }
  if (status === 409) {
    return {
      kind: "form",
      text:
        json.error === "Sold out"
          ? "Sorry, the last tickets went while you were paying. No payment was taken."
          : `${json.error ?? "This payment can't be completed"}.`,
    };
  }
  if (status === 429) return { kind: "form", text: "Too many attempts in a short time. Please wait a minute and try again." };
  if (status === 404) return { kind: "form", text: "This payment could not be found. Please start your gift again." };
  return { kind: "form", text: "Something went wrong on our side. Your card was not charged; please try again." };
}
