/**
 * One payment attempt on the donate page: the request body of `POST /api/donations` and the
 * `Idempotency-Key` it is sent with. The key is made once per attempt and kept in this tab's
 * sessionStorage by campaign and the gift's contents, so a double click, an automatic retry after
 * a lost answer, or the donor coming back with Back and sending the same gift again all reuse it:
 * the server then answers the donation it already created (`Idempotent-Replayed`) instead of
 * starting a second one. A different gift (amount, frequency, donor details, anything in the
 * body but the captcha token) is a new attempt with a new key. The attempt ends when its answer
 * settles it (a refusal, which the server keeps under the key) or the gift is paid (the
 * thank-you page): the next gift is a new one.
 */
type Attempt = { fingerprint: string; key: string; body: string };

const storageKey = (campaignId: string) => `goodfund:donate-attempt:${campaignId}`;

// Without sessionStorage (privacy settings), attempts live as long as the page.
const inPage = new Map<string, Attempt>();

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function read(campaignId: string): Attempt | null {
  try {
    const raw = storage()?.getItem(storageKey(campaignId));
    if (!raw) return inPage.get(campaignId) ?? null;
    const a = JSON.parse(raw) as Partial<Attempt>;
    return typeof a.fingerprint === "string" && typeof a.key === "string" && typeof a.body === "string" ? (a as Attempt) : null;
  } catch {
    return inPage.get(campaignId) ?? null;
  }
}

/** A random key: crypto.randomUUID needs a secure context, getRandomValues does not. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `donate_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The attempt for this gift: the stored one when the donor sends the same gift again (its body
 * as first sent, captcha token included, so a replay matches), else a new one.
 */
export function paymentAttempt(campaignId: string, body: Record<string, unknown>): { key: string; body: string } {
  const { captchaToken: _captcha, ...gift } = body;
  const fingerprint = JSON.stringify(gift);
  const previous = read(campaignId);
  if (previous && previous.fingerprint === fingerprint) return { key: previous.key, body: previous.body };
  const attempt: Attempt = { fingerprint, key: newKey(), body: JSON.stringify(body) };
  inPage.set(campaignId, attempt);
  try {
    storage()?.setItem(storageKey(campaignId), JSON.stringify(attempt));
  } catch {
    // Quota or privacy mode: the in-page copy still covers double clicks and retries.
  }
  return { key: attempt.key, body: attempt.body };
}

/** The attempt is over (refused, or paid): the next gift gets a new key. */
export function endPaymentAttempt(campaignId: string): void {
  inPage.delete(campaignId);
  try {
    storage()?.removeItem(storageKey(campaignId));
  } catch {
    // Nothing to forget.
  }
}
