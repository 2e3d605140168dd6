import type { Db } from "@/db";
import type { WebhookEndpoint } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { TEST_EVENT_TYPE } from "@/lib/schemas/webhooks";
import { emitEvent } from "@/lib/webhooks-out/emit";

/** Emits a `webhook.test` event to this endpoint only, whatever event types it subscribes to. */
export async function sendTestWebhook(db: Db, endpoint: WebhookEndpoint): Promise<{ eventId: string; endpointId: string }> {
  if (!endpoint.enabled) throw conflict("webhook_endpoint_disabled", "Webhook endpoint is disabled");
  const data = { endpointId: endpoint.id, url: endpoint.url, message: "A test event from Goodfund: your endpoint is reachable." };
  const eventId = await db.transaction((tx) => emitEvent(tx, endpoint.orgId, TEST_EVENT_TYPE, data, { endpointId: endpoint.id }));
  return { eventId, endpointId: endpoint.id };
}
