import type { ApiErrorBody } from "./types";

type SubmitErrorKey =
  | "inProgress"
  | "soldOut"
  | "closed"
  | "declinedPause"
  | "heldTicketsPause"
  | "tooManySeconds"
  | "tooMany"
  | "notFound"
  | "server"
  | "generic";

/** A translator over the donate namespace's `submitError` messages. */
type T = (key: `submitError.${SubmitErrorKey}`, values?: Record<string, string | number>) => string;

/**
 * What the donor reads when POST /api/donations refuses the gift for a reason that isn't one
 * field's (those are worded from their codes next to the field): every sentence says whether a
 * payment was taken. The API's own message shows only for a server error it explains.
 */
export function createFailureText(res: { status: number; retryAfter: string | null }, json: ApiErrorBody, t: T): string {
  if (res.status === 409 && json.error === "A request with this idempotency key is in progress") return t("submitError.inProgress");
  if (res.status === 409) return json.error === "Sold out" ? t("submitError.soldOut") : t("submitError.closed");
  if (res.status === 429 && json.error === "Too many failed payments, try again later") {
    const minutes = Math.max(1, Math.ceil(Number(res.retryAfter) / 60) || 60);
    return t("submitError.declinedPause", { minutes });
  }
  if (res.status === 429 && json.error === "Too many unpaid tickets held for this event, try again later") {
    const minutes = Math.max(1, Math.ceil(Number(res.retryAfter) / 60) || 30);
    return t("submitError.heldTicketsPause", { minutes });
  }
  if (res.status === 429) {
    const wait = Number(res.retryAfter);
    return wait > 0 && wait < 3600 ? t("submitError.tooManySeconds", { seconds: wait }) : t("submitError.tooMany");
  }
  if (res.status === 404) return t("submitError.notFound");
  return res.status >= 500 && json.error && json.error !== "Internal server error"
    ? t("submitError.server", { error: json.error })
    : t("submitError.generic");
}
