// `npm run worker`: the outbox/campaign worker as its own process, for deployments that set
// WORKER_DISABLED=1 on their web servers. It expects a migrated database (the servers migrate on
// start, or `npm run db:migrate`). Any number of these may run against one Postgres database.
// Never point it at the embedded PGlite directory of a running server: PGlite allows one process
// per directory, and the embedded server already runs this worker itself.
import { closeDb, getDb } from "@/db";
import { getEnv } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { startWorker } from "@/lib/jobs/worker";

async function main(): Promise<void> {
  const env = getEnv();
  await getDb();
  const worker = startWorker({ keepAlive: true });
  console.log(
    `Goodfund worker: ${env.embedded ? `embedded database in ${env.dataDir}` : "PostgreSQL"}; emails ${env.RESEND_API_KEY ? "via Resend" : "kept in the outbox"}. Ctrl-C to stop.`,
  );

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info("worker stopping", { signal });
    // The run in progress finishes (its rows get their outcome) before the database closes.
    worker
      .stop()
      .then(() => closeDb())
      .then(
        () => process.exit(0),
        (err) => {
          log.error("worker shutdown failed", errorFields(err));
          process.exit(1);
        },
      );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
