// One scrape shows the whole instance: with WEB_CONCURRENCY > 1 the process that receives
// `GET /api/metrics` asks the cluster primary (server/metrics.ts), which collects every server
// process's metrics through prom-client's AggregatorRegistry (over node:cluster's IPC) and sums
// them.
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { register } from "prom-client";

/** The messages between a server process and the primary. */
export const METRICS_REQUEST = "goodfund:metrics-request";
export const METRICS_REPLY = "goodfund:metrics-reply";
export type MetricsRequest = { type: typeof METRICS_REQUEST; id: string };
export type MetricsReply = { type: typeof METRICS_REPLY; id: string; text?: string; error?: string };

const REPLY_TIMEOUT_MS = 5_000;

/**
 * The Prometheus text of this process's metrics, or of every process of the instance when it is a
 * cluster worker (asking the primary).
 */
export async function instanceMetrics(): Promise<string> {
  if (!cluster.isWorker || !process.send) return register.metrics();
  const id = randomUUID();
  return new Promise<string>((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const reply = message as MetricsReply | null;
      if (reply?.type !== METRICS_REPLY || reply.id !== id) return;
      done();
      if (reply.error !== undefined || reply.text === undefined) reject(new Error(`metrics of the cluster: ${reply.error}`));
      else resolve(reply.text);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the cluster primary did not send the metrics within ${REPLY_TIMEOUT_MS} ms`));
    }, REPLY_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      process.off("message", onMessage);
    };
    process.on("message", onMessage);
    process.send!({ type: METRICS_REQUEST, id } satisfies MetricsRequest);
  });
}
