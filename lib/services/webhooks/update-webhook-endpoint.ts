import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { webhookEndpoints, type WebhookEndpoint } from "@/db/schema";
import type { UpdateWebhookEndpointInput } from "@/lib/schemas/webhooks";
import { changedFields, recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { urlForAudit } from "@/lib/services/audit/url-for-audit";
import { newWebhookSecret, sealWebhookSecret } from "@/lib/webhooks-out/endpoint-secret";
import { assertWebhookUrl } from "./assert-webhook-url";

export const DISABLED_MANUALLY = "Disabled by an administrator";

/**
 * Partial update. Re-enabling clears the failure state (a fresh start of the five-day clock);
 * `rotateSecret` replaces the secret at once: deliveries from then on, retries included, are
 * signed with the new one. The new secret is stored encrypted and answered in clear (`secret`),
 * once, for the caller to show. Audit entries commit with the change: `webhook_endpoint.updated`
 * (the fields that changed, the URL without its query string) and `webhook_endpoint.secret_rotated` (never the secret itself).
 */
export async function updateWebhookEndpoint(
  db: Db,
  endpoint: WebhookEndpoint,
  input: UpdateWebhookEndpointInput,
  audit: AuditContext,
): Promise<{ endpoint: WebhookEndpoint; secret?: string }> {
  const values: Partial<typeof webhookEndpoints.$inferInsert> = {};
  if (input.url !== undefined) values.url = await assertWebhookUrl(input.url);
  if (input.description !== undefined) values.description = input.description;
  if (input.eventTypes !== undefined) values.eventTypes = input.eventTypes;
  if (input.enabled === true && !endpoint.enabled) Object.assign(values, { enabled: true, disabledReason: null, failingSince: null });
  if (input.enabled === false && endpoint.enabled) Object.assign(values, { enabled: false, disabledReason: DISABLED_MANUALLY });
  const secret = input.rotateSecret ? newWebhookSecret() : undefined;
  if (secret) values.encryptedSecret = sealWebhookSecret(endpoint.id, secret);
  if (Object.keys(values).length === 0) return { endpoint };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(webhookEndpoints.id, endpoint.id))
      .returning();
    // No row: deleted meanwhile; the rotated secret was never stored, so it is not shown.
    if (!row) return { endpoint };
    const target = { type: "webhook_endpoint", id: endpoint.id } as const;
    const changes = changedFields(endpoint, {
      url: values.url,
      description: values.description,
      eventTypes: values.eventTypes,
      enabled: values.enabled,
    });
    // The log shows that the URL changed and where it points now, never its query string.
    if (typeof changes.url === "string") changes.url = urlForAudit(changes.url);
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, audit, { orgId: endpoint.orgId, action: "webhook_endpoint.updated", target, data: { changes } });
    }
    if (secret) await recordAudit(tx, audit, { orgId: endpoint.orgId, action: "webhook_endpoint.secret_rotated", target });
    return { endpoint: row, secret };
  });
}
