import type { ApiErrorBody, CreatedDonation } from "./types";

/** The 409 of a request whose idempotency key is still being worked on by an earlier send. */
export const IN_PROGRESS = "A request with this idempotency key is in progress";

/** Sends after a lost answer or a busy server, before the donor is told; each waits longer. */
const RETRIES = 3;
const MAX_WAIT_MS = 5_000;

export type DonationAnswer = { res: Response; json: ApiErrorBody & Partial<CreatedDonation> };

/**
 * `POST /api/donations` for one payment attempt, retried with the same key and the same body
 * when the answer was lost (a network error), the server was busy (502/503/504, honouring
 * `Retry-After`), or an earlier send of this attempt is still running (409 in progress): the
 * server runs the attempt at most once and answers the retries with its result. Null when no
 * answer came at all.
 */
export async function postDonation(attempt: { key: string; body: string }): Promise<DonationAnswer | null> {
  for (let tries = 0; ; tries++) {
    let answer: DonationAnswer | null = null;
    try {
      const res = await fetch("/api/donations", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": attempt.key },
        body: attempt.body,
      });
      answer = { res, json: (await res.json().catch(() => ({}))) as DonationAnswer["json"] };
    } catch {
      // No answer: the server may or may not have the donation; the same key makes asking again safe.
    }
    const retry =
      !answer || [502, 503, 504].includes(answer.res.status) || (answer.res.status === 409 && answer.json.error === IN_PROGRESS);
    if (!retry || tries >= RETRIES) return answer;
    const retryAfter = Number(answer?.res.headers.get("Retry-After"));
    const wait = retryAfter > 0 ? retryAfter * 1000 : 500 * 2 ** tries;
    await new Promise((r) => setTimeout(r, Math.min(wait, MAX_WAIT_MS)));
  }
}
