import { WEBHOOK_EVENT_TYPES } from "@/lib/schemas/webhooks";

// The webhook endpoints' shared reference text.

/** How events are delivered, signed and retried. */
export const WEBHOOK_DELIVERY =
  `Events: ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\``).join(", ")}. Each is POSTed as JSON ` +
  "`{ id, type, createdAt, data }` (`data` is the resource as this API shows it) and signed per the Standard Webhooks " +
  "specification: headers `webhook-id` (the event ID, the same on every retry), `webhook-timestamp` and " +
  "`webhook-signature` (verify with any Standard Webhooks library and the endpoint's secret). Any 2xx answer within " +
  "10 seconds is a success; otherwise the delivery is retried with exponential backoff (the first retry within 30 " +
  "seconds) for about three days. Redirects are not followed. An endpoint whose deliveries have failed for five days " +
  "is disabled. URLs must be https and must not resolve to private, loopback or link-local addresses (checked when " +
  "saved and again before every delivery).";

export const ENDPOINT_NOT_FOUND = "Organization not found, or Webhook endpoint not found";
export const ENDPOINT_DISABLED = "Webhook endpoint is disabled";
