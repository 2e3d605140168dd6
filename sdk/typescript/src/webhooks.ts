import { Webhook, WebhookVerificationError } from "standardwebhooks";
import type { components } from "./schema.js";

export { WebhookVerificationError };

/** The event types an endpoint can subscribe to, and `webhook.test` (the dashboard's and the API's test ping). */
export type WebhookEventType = NonNullable<components["schemas"]["CreateWebhookEndpoint"]["eventTypes"]>[number] | "webhook.test";

/** The body of a delivery: the event, its data being the resource as the API serializes it. */
export type WebhookEvent<Data = unknown> = { id: string; type: WebhookEventType; createdAt: string; data: Data };

/** Request headers as `fetch` (a `Headers`), Node's `http` (`req.headers`) or a plain object gives them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof Headers !== "undefined" && headers instanceof Headers) {
    headers.forEach((value, name) => (out[name.toLowerCase()] = value));
    return out;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/**
 * Checks a delivery of Goodfund's outbound webhooks and returns its event. Deliveries are signed
 * the Standard Webhooks way: `webhook-id` (the event ID, the same on every retry, so use it to
 * skip repeats), `webhook-timestamp` (Unix seconds; more than five minutes off is refused) and
 * `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body`), with the endpoint's
 * signing secret (`whsec_…`, shown when the endpoint is created or its secret rotated).
 *
 * `payload` must be the raw body as received, not JSON re-serialized. Throws
 * `WebhookVerificationError` when a header is missing, the timestamp is too old or new, or no
 * signature matches.
 */
export function verifyWebhook<Data = unknown>(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent<Data> {
  const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  return new Webhook(secret).verify(body, headerRecord(headers)) as WebhookEvent<Data>;
}
