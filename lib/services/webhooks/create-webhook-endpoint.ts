import { randomBytes } from "node:crypto";
import type { Db } from "@/db";
import { countWebhookEndpoints } from "@/db/queries/webhooks";
import { webhookEndpoints, type WebhookEndpoint } from "@/db/schema";
import { conflict } from "@/lib/api/errors";
import { newId } from "@/lib/ids";
import type { CreateWebhookEndpointInput } from "@/lib/schemas/webhooks";
import { assertWebhookUrl } from "./assert-webhook-url";

/** Each endpoint receives every event it subscribes to: a cap keeps one organization's fan-out bounded. */
export const MAX_WEBHOOK_ENDPOINTS = 20;

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** Creates an enabled endpoint with a fresh secret (the caller shows it once). */
export async function createWebhookEndpoint(db: Db, orgId: string, input: CreateWebhookEndpointInput): Promise<WebhookEndpoint> {
  const url = await assertWebhookUrl(input.url);
  if ((await countWebhookEndpoints(db, orgId)) >= MAX_WEBHOOK_ENDPOINTS) {
    throw conflict(`An organization can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`);
  }
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ id: newId("we"), orgId, url, description: input.description ?? null, eventTypes: input.eventTypes ?? [], secret: newWebhookSecret() })
    .returning();
  return row;
}
