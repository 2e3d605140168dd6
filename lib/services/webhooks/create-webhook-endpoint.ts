import type { Db } from "@/db";
import { countWebhookEndpoints } from "@/db/queries/webhooks";
import { webhookEndpoints, type WebhookEndpoint } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { CreateWebhookEndpointInput } from "@/lib/schemas/webhooks";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { urlForAudit } from "@/lib/services/audit/url-for-audit";
import { newWebhookSecret, sealWebhookSecret } from "@/lib/webhooks-out/endpoint-secret";
import { assertWebhookUrl } from "./assert-webhook-url";

/** Each endpoint receives every event it subscribes to: a cap keeps one organization's fan-out bounded. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/**
 * Creates an enabled endpoint with a fresh secret. The secret is stored encrypted; the clear
 * value is answered once, here, for the caller to show (the audit entry never holds it).
 */
export async function createWebhookEndpoint(
  db: Db,
  orgId: string,
  input: CreateWebhookEndpointInput,
  audit: AuditContext,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await assertWebhookUrl(input.url);
  if ((await countWebhookEndpoints(db, orgId)) >= MAX_WEBHOOK_ENDPOINTS) {
    throw conflict("webhook_endpoint_limit", `An organization can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`);
  }
  const id = newId("we");
  const secret = newWebhookSecret();
  return db.transaction(async (tx) => {
    const [endpoint] = await tx
      .insert(webhookEndpoints)
      .values({
        id,
        orgId,
        url,
        description: input.description ?? null,
        eventTypes: input.eventTypes ?? [],
        encryptedSecret: sealWebhookSecret(id, secret),
      })
      .returning();
    await recordAudit(tx, audit, {
      orgId,
      action: "webhook_endpoint.created",
      target: { type: "webhook_endpoint", id },
      data: { url: urlForAudit(endpoint.url), description: endpoint.description, eventTypes: endpoint.eventTypes },
    });
    return { endpoint, secret };
  });
}
