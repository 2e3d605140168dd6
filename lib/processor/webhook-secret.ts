import { getEnv, readOrCreateSecret } from "@/lib/env";

/**
 * The secrets processor events may be signed with. PROCESSOR_WEBHOOK_SECRET holds Stripe's
 * `whsec_…`, or several separated by commas: Stripe signs the events of connected accounts
 * (`account.updated`, payouts) through a second endpoint with a secret of its own. In embedded
 * mode without it, one generated under the data directory, which the sandbox signs with.
 */
export function getWebhookSecrets(): string[] {
  const env = getEnv();
  if (env.PROCESSOR_WEBHOOK_SECRET) {
    const secrets = env.PROCESSOR_WEBHOOK_SECRET.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (secrets.length > 0) return secrets;
  }
  if (env.embedded) return [readOrCreateSecret(env.dataDir, "processor-webhook-secret")];
  throw new Error("PROCESSOR_WEBHOOK_SECRET is required when DATABASE_URL is set.");
}

/** The secret the sandbox signs its own events with: the first one. */
export function getWebhookSecret(): string {
  return getWebhookSecrets()[0];
}
