import { isIP } from "node:net";
import { getEnv } from "@/lib/env";
import { AppError, fieldError } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";

const VERIFY_TIMEOUT_MS = 10_000;

/** Error codes of the verify service that mean our configuration is wrong, not the donor's token. */
const SERVER_SIDE = new Set(["missing-input-secret", "invalid-input-secret", "internal-error"]);

/**
 * With `TURNSTILE_SECRET_KEY` set, a donation needs a Cloudflare Turnstile token, verified with
 * the siteverify API (`TURNSTILE_VERIFY_URL`): form-encoded `secret`, `response` and, when the
 * client's address is a plain IP, `remoteip`. A missing or rejected token is a 400 on
 * `captchaToken`. When the verify service can't be reached or answers that our secret is wrong,
 * the donation is refused with a 503 rather than let through: the check exists to stop automated
 * card testing, and failing open would switch it off whenever the service is slow.
 */
export async function assertCaptcha(token: string | null | undefined, clientIp: string | null): Promise<void> {
  const env = getEnv();
  const secret = env.TURNSTILE_SECRET_KEY;
  if (!secret) return;
  if (!token) throw fieldError("captchaToken", "Complete the verification challenge to continue", "captcha_required");
  const form = new URLSearchParams({ secret, response: token });
  if (clientIp && isIP(clientIp)) form.set("remoteip", clientIp);
  let outcome: { success?: unknown; "error-codes"?: unknown };
  try {
    const res = await fetch(env.TURNSTILE_VERIFY_URL, { method: "POST", body: form, signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`verify service answered ${res.status}`);
    outcome = (await res.json()) as typeof outcome;
  } catch (err) {
    log.error("captcha verification unavailable", errorFields(err));
    throw unavailable();
  }
  if (outcome.success === true) return;
  const codes = Array.isArray(outcome["error-codes"]) ? outcome["error-codes"].map(String) : [];
  if (codes.some((c) => SERVER_SIDE.has(c))) {
    log.error("captcha verification refused our request", { codes });
    throw unavailable();
  }
  throw fieldError("captchaToken", "Verification failed or expired, please try again", "captcha_invalid");
}

const unavailable = () =>
  new AppError("captcha_unavailable", "Captcha verification unavailable, please try again", undefined, { "Retry-After": "5" });
