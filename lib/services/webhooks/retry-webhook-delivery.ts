import type { Db } from "@/db";
import { countWebhookAttempts, type WebhookDeliveryRow } from "@/db/queries/webhooks";
import type { WebhookEndpoint } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { enqueueWebhookDelivery } from "@/lib/webhooks-out/emit";

/**
 * Sends a logged delivery's event to the endpoint again, now: a new outbox row
 * (`webhook:<eventId>:<endpointId>:retry:<n>`, n = attempts logged so far), with its own run of
 * backoff retries. Same event ID, so receivers that deduplicate on `webhook-id` see a repeat.
 * Asking again before that retry was attempted queues nothing more.
 */
export async function retryWebhookDelivery(
  db: Db,
  endpoint: WebhookEndpoint,
  delivery: WebhookDeliveryRow,
): Promise<{ eventId: string; endpointId: string }> {
  if (!endpoint.enabled) throw conflict("webhook_endpoint_disabled", "Webhook endpoint is disabled");
  const target = { eventId: delivery.eventId, endpointId: endpoint.id };
  const attempts = await countWebhookAttempts(db, target.eventId, target.endpointId);
  await enqueueWebhookDelivery(db, endpoint.orgId, target, Math.max(attempts, 1));
  return target;
}
