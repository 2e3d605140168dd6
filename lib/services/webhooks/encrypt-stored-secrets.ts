import { and, asc, eq, gt, like, not } from "drizzle-orm";
import type { Db } from "@/db";
import { webhookEndpoints } from "@/db/schema";
import { SecretDecryptionError } from "@/lib/crypto/secrets";
import { log } from "@/lib/log";
import { isPlaintextWebhookSecret, openWebhookSecret, sealWebhookSecret } from "@/lib/webhooks-out/endpoint-secret";

const BATCH = 200;

/**
 * Start-up step: encrypts every webhook signing secret still stored in clear (rows from before
 * secrets were encrypted). Idempotent, and safe with several instances starting at once: each
 * row is replaced only if it still holds the clear value read (compare-and-set), so a row another
 * instance encrypted, or an admin rotated, meanwhile is left alone. Answers how many rows this
 * call encrypted.
 */
export async function encryptStoredWebhookSecrets(db: Db): Promise<number> {
  let encrypted = 0;
  let after = "";
  for (;;) {
    const rows = await db
      .select({ id: webhookEndpoints.id, stored: webhookEndpoints.encryptedSecret })
      .from(webhookEndpoints)
      .where(and(gt(webhookEndpoints.id, after), not(like(webhookEndpoints.encryptedSecret, "enc:%"))))
      .orderBy(asc(webhookEndpoints.id))
      .limit(BATCH);
    for (const row of rows) {
      if (!isPlaintextWebhookSecret(row.stored)) continue;
      const changed = await db
        .update(webhookEndpoints)
        .set({ encryptedSecret: sealWebhookSecret(row.id, row.stored) })
        .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.encryptedSecret, row.stored)))
        .returning({ id: webhookEndpoints.id });
      encrypted += changed.length;
    }
    if (rows.length < BATCH) return encrypted;
    after = rows[rows.length - 1].id;
  }
}

/**
 * Whether SECRETS_ENCRYPTION_KEY opens the stored secrets, judged on one encrypted row: false
 * means the key changed since they were written (every delivery would fail until the right key is
 * set or each endpoint's secret is rotated). True when there is nothing to check.
 */
export async function webhookSecretsKeyMatches(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: webhookEndpoints.id, encryptedSecret: webhookEndpoints.encryptedSecret })
    .from(webhookEndpoints)
    .where(like(webhookEndpoints.encryptedSecret, "enc:%"))
    .limit(1);
  if (!row) return true;
  try {
    openWebhookSecret(row);
    return true;
  } catch (err) {
    if (err instanceof SecretDecryptionError) return false;
    throw err;
  }
}

/**
 * What a server process runs at start-up, after migrations: encrypts the secrets still in clear,
 * then checks that the configured key opens the stored ones, and says so loudly in the log when
 * it does not. A wrong key does not stop the server (donations and everything else work); the
 * deliveries fail, each with that reason in its log, and nothing is signed with a wrong secret.
 */
export async function prepareStoredWebhookSecrets(db: Db): Promise<void> {
  const encrypted = await encryptStoredWebhookSecrets(db);
  if (encrypted > 0) log.info("webhook signing secrets encrypted at rest", { endpoints: encrypted });
  if (!(await webhookSecretsKeyMatches(db))) {
    log.error(
      "SECRETS_ENCRYPTION_KEY does not decrypt the stored webhook signing secrets: outbound webhooks will fail until the key they were encrypted with is set again, or each endpoint's secret is rotated",
    );
  }
}
