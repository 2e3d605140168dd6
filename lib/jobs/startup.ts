import { runMigrations } from "@/db/migrate";
import { assertClientsCanBeToldApart } from "@/lib/api/client-ip";
import { getDb } from "@/db";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { seedDemoIfEmpty } from "@/lib/demo/seed";
import { prepareStoredWebhookSecrets } from "@/lib/services/webhooks/encrypt-stored-secrets";
import { SERVER_RUNS_WORKER_ENV } from "./server-runs-worker";
import { startWorker } from "./worker";

/**
 * Start-up of a server process: validate the environment (fails fast with a clear message; in
 * production that includes telling clients apart: lib/api/client-ip.ts),
 * apply migrations (safe with several instances), seed the demo on an empty embedded
 * database (or with SEED_DEMO=1), and start the outbox/campaign worker unless WORKER_DISABLED
 * (deployments that run `npm run worker` or the cron route instead).
 */
export async function startServerProcess(): Promise<void> {
  const env = getEnv();
  assertClientsCanBeToldApart();
  await runMigrations();
  const db = await getDb();
  await prepareStoredWebhookSecrets(db);
  const wantsSeed =
    env.SEED_DEMO === "1" || env.SEED_DEMO === "true" || (env.embedded && env.SEED_DEMO !== "0" && env.SEED_DEMO !== "false");
  if (wantsSeed) {
    const seeded = await seedDemoIfEmpty(db, { scale: env.DEMO_HISTORY_SCALE });
    if (seeded) log.info("demo data created", { org: seeded.orgSlug, owner: seeded.ownerEmail });
  }
  // Our own server (server/main.ts) runs the worker itself, to stop it with the server on SIGTERM.
  if (!env.WORKER_DISABLED && process.env[SERVER_RUNS_WORKER_ENV] !== "1") startWorker();
  const mode = env.embedded ? `embedded database in ${env.dataDir}` : "PostgreSQL";
  console.log(
    [
      `Goodfund: ${mode}; payments ${env.paymentsMode === "stripe" ? "via Stripe" : "in sandbox mode (no real charges)"}.`,
      `Get an API token:  npm run token -- --email demo@goodfund.local`,
      `Then:              curl -H "Authorization: Bearer <token>" ${env.appUrl}/api/orgs`,
      `API reference:     ${env.appUrl}/api/openapi.json`,
    ].join("\n"),
  );
}
