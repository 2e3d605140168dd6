// The app's Prometheus metrics (prom-client's default registry: one per server process; the
// cluster primary sums the processes' values, see ./cluster.ts and server/metrics.ts). What a
// process counts itself lives here; what the database knows is read at each scrape
// (./database.ts).
import { Counter, collectDefaultMetrics, register } from "prom-client";

/** The metric names' prefix. */
export const PREFIX = "goodfund_";

/** A metric of the default registry, created once per process whichever module asks first. */
function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  const existing = register.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames });
}

/** Processor events received on the webhook, by event type ("other" for types Goodfund does not act on) and result. */
export function processorEventsCounter() {
  return counter(
    `${PREFIX}processor_events_total`,
    "Processor events received, by type and result (applied, duplicate, ignored, unhandled, failed)",
    ["type", "result"],
  );
}

/** Outbound webhook delivery attempts by result: `success` (2xx), `failure` (another status or no answer), `skipped`. */
export function webhookDeliveriesCounter() {
  return counter(`${PREFIX}webhook_deliveries_total`, "Outbound webhook delivery attempts, by result (success, failure, skipped)", [
    "result",
  ]);
}

/** The process's own metrics (CPU, memory, event-loop lag, garbage collection), once per process. */
export function collectProcessMetrics(): void {
  if (register.getSingleMetric(`${PREFIX}process_cpu_user_seconds_total`)) return;
  collectDefaultMetrics({ prefix: PREFIX });
}
