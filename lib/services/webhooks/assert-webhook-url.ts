import { getEnv } from "@/lib/env";
import { fieldError } from "@/lib/errors";
import { resolveTarget, UnsafeUrlError } from "@/lib/webhooks-out/ssrf";

/** The `url` field's refusal: it never names the address a host resolved to. */
export const URL_NOT_PUBLIC = "Must resolve to a public internet address";

/**
 * Checks an endpoint URL when it is saved: https (http only with ALLOW_PRIVATE_WEBHOOK_URLS=1),
 * no user name or password in it (they would be stored and shown in clear: the endpoint's secret
 * is what authenticates deliveries), and a host that is, or resolves to, global unicast
 * addresses only (400 on `url` otherwise). A
 * name that does not resolve yet is accepted: the same check runs again before every delivery,
 * on the address actually connected to, and that one is what keeps the server out of private
 * networks. Answers the URL as normalized by the URL parser.
 */
export async function assertWebhookUrl(raw: string): Promise<string> {
  const allowPrivate = getEnv().ALLOW_PRIVATE_WEBHOOK_URLS;
  const url = new URL(raw);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && allowPrivate))
    throw fieldError("url", "Must be an https URL", "https_required");
  if (url.username || url.password) {
    throw fieldError(
      "url",
      "Must not contain a user name or password; deliveries are signed with the endpoint's secret",
      "url_credentials",
    );
  }
  try {
    await resolveTarget(url.hostname, { allowPrivate });
  } catch (err) {
    if (!(err instanceof UnsafeUrlError)) throw err;
    if (err.reason === "refused") throw fieldError("url", URL_NOT_PUBLIC, "url_not_public");
  }
  return url.href;
}
