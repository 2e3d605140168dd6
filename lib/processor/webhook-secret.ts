import { getEnv, readOrCreateSecret } from "@/lib/env";

/**
 * The secret processor events are signed with: PROCESSOR_WEBHOOK_SECRET (Stripe's `whsec_…`),
 * or in embedded mode one generated under the data directory, which the sandbox signs with.
 */
export function getWebhookSecret(): string {
  const env = getEnv();
  if (env.PROCESSOR_WEBHOOK_SECRET) return env.PROCESSOR_WEBHOOK_SECRET;
  if (env.embedded) return readOrCreateSecret(env.dataDir, "processor-webhook-secret");
  throw new Error("PROCESSOR_WEBHOOK_SECRET is required when DATABASE_URL is set.");
}
