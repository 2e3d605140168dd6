import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { webhookEndpoints, type WebhookEndpoint } from "@/db/schema";
import type { UpdateWebhookEndpointInput } from "@/lib/schemas/webhooks";
import { newWebhookSecret, sealWebhookSecret } from "@/lib/webhooks-out/endpoint-secret";
import { assertWebhookUrl } from "./assert-webhook-url";

export const DISABLED_MANUALLY = "Disabled by an administrator";

/**
 * Partial update. Re-enabling clears the failure state (a fresh start of the five-day clock);
 * `rotateSecret` replaces the secret at once: deliveries from then on, retries included, are
 * signed with the new one. The new secret is stored encrypted and answered in clear (`secret`),
 * once, for the caller to show.
 */
export async function updateWebhookEndpoint(
  db: Db,
  endpoint: WebhookEndpoint,
  input: UpdateWebhookEndpointInput,
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
  const [row] = await db
    .update(webhookEndpoints)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  // No row: deleted meanwhile; the rotated secret was never stored, so it is not shown.
  return row ? { endpoint: row, secret } : { endpoint };
}
