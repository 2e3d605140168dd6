// What the database knows, read at each scrape by the process that answers it (once per scrape,
// not once per server process: these are the instance's, indeed every instance's, numbers).
import { Gauge, Registry } from "prom-client";
import type { Db } from "@/db";
import { APPLICATION_NAME } from "@/db";
import { countDatabaseConnections, countDonationsByStatus } from "@/db/queries/metrics";
import { getOutboxBacklog } from "@/db/queries/outbox";
import { getEnv } from "@/lib/env";
import { PREFIX } from "./index";

/**
 * The Prometheus text of the database's numbers: donations by status, the outbox's depth and the
 * age of its oldest due row, and the app's connections by state (`pg_stat_activity`; the
 * `postgres` driver exposes no pool statistics of its own) beside the pool size per process.
 */
export async function databaseMetrics(db: Db): Promise<string> {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) =>
    new Gauge({ name: `${PREFIX}${name}`, help, labelNames, registers: [registry] });
  const [donations, backlog, connections] = await Promise.all([
    countDonationsByStatus(db),
    getOutboxBacklog(db),
    getEnv().embedded ? Promise.resolve([]) : countDatabaseConnections(db, APPLICATION_NAME),
  ]);
  const byStatus = gauge("donations", "Donations by status, every organization together", ["status"]);
  for (const d of donations) byStatus.set({ status: d.status }, d.count);
  gauge("outbox_pending", "Outbox items (emails, outbound webhooks) not yet sent, due or waiting out a retry's backoff").set(
    backlog.pending,
  );
  gauge("outbox_due", "Outbox items whose time has come").set(backlog.due);
  gauge("outbox_oldest_due_age_seconds", "How long the oldest due outbox item has waited (0 when none is due)").set(
    backlog.oldestDueSeconds,
  );
  const conns = gauge("db_connections", "The app's database connections by state (pg_stat_activity, every instance together)", ["state"]);
  for (const c of connections) conns.set({ state: c.state }, c.count);
  gauge("db_pool_max", "Database connections each server process may open (DATABASE_POOL_SIZE)").set(getEnv().DATABASE_POOL_SIZE);
  return registry.metrics();
}
