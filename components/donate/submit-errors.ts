import type { ApiErrorBody } from "./types";

/**
 * What the donor reads when POST /api/donations refuses the gift for a reason that isn't one
 * field's (those are worded from their codes next to the field): every sentence says whether a
 * payment was taken.
 */
export function createFailureText(res: { status: number; retryAfter: string | null }, json: ApiErrorBody): string {
  if (res.status === 409 && json.error === "A request with this idempotency key is in progress") {
    return "Your gift is still being saved. Please wait a moment and try again; you won't be charged twice.";
  }
  if (res.status === 409) {
    return json.error === "Sold out"
      ? "Sorry, there aren't enough tickets left for this order. Try fewer tickets, or reload the page to see how many remain."
      : "This campaign isn't accepting donations right now. No payment was taken.";
  }
  if (res.status === 429 && json.error === "Too many failed payments, try again later") {
    const minutes = Math.max(1, Math.ceil(Number(res.retryAfter) / 60) || 60);
    return `Several payments from your connection were declined recently, so new donations are paused for about ${minutes} minute${minutes === 1 ? "" : "s"}. No payment was taken.`;
  }
  if (res.status === 429) {
    const wait = Number(res.retryAfter);
    return `Too many attempts in a short time. Please wait ${wait > 0 && wait < 3600 ? `${wait} second${wait === 1 ? "" : "s"}` : "a minute"} and try again.`;
  }
  if (res.status === 404) return "This campaign can no longer be found. It may have been removed.";
  return res.status >= 500 && json.error && json.error !== "Internal server error"
    ? `${json.error}. No payment was taken.`
    : "Something went wrong on our side. No payment was taken; please try again.";
}

export const UNREACHABLE = "We couldn't reach the server. Check your connection and try again.";
