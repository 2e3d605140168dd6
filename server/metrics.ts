// The server's side of the metrics (`GET /api/metrics`, app/api/metrics/route.ts): every request's
// count and duration by route pattern, method and status, and the overload guard's sheds; and, in
// the cluster primary, the collection of every server process's metrics into one scrape.
import cluster from "node:cluster";
import type { IncomingMessage, ServerResponse } from "node:http";
import { AggregatorRegistry, Counter, Histogram } from "prom-client";
import { METRICS_REPLY, METRICS_REQUEST, type MetricsReply, type MetricsRequest } from "@/lib/metrics/cluster";
import { PREFIX, collectProcessMetrics } from "@/lib/metrics";
import type { Limiter } from "./overload";

/** The `route` label: an API route's pattern (`/api/orgs/[idOrSlug]/campaigns`), never a raw path, so series stay bounded. */
export type RouteLabeler = (pathname: string) => string;

/**
 * Labels by route pattern: an API route's path as its file declares it (server/routes.generated.ts),
 * `/api/*` for an API path no route serves, `static` for Next.js's bundles and the public files,
 * and `page` for every page.
 */
export function routeLabeler(apiRoutes: readonly { route: string; pattern: RegExp }[], staticFiles: ReadonlySet<string>): RouteLabeler {
  // A route without parameters is the one that serves its own path (they come first in apiRoutes):
  // most requests are labelled by a lookup, the others by the first pattern that matches.
  const fixed = new Set(apiRoutes.filter((r) => !r.route.includes("[")).map((r) => r.route));
  return (pathname) => {
    if (fixed.has(pathname)) return pathname;
    if (pathname === "/api" || pathname.startsWith("/api/")) return apiRoutes.find((r) => r.pattern.test(pathname))?.route ?? "/api/*";
    if (staticFiles.has(pathname) || pathname.startsWith("/_next/static/")) return "static";
    return "page";
  };
}

/** Latency buckets in seconds: from a cached read to a slow export. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Counts each request once its answer is sent (or its client left: status `aborted`), timed from
 * its arrival, overload queueing included.
 */
export function requestMetrics(label: RouteLabeler) {
  const labelNames = ["route", "method", "status"] as const;
  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: "HTTP requests, by route pattern, method and status",
    labelNames,
  });
  const duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "HTTP request duration from arrival to the last byte sent, by route pattern, method and status",
    labelNames,
    buckets: BUCKETS,
  });
  return (req: IncomingMessage, res: ServerResponse) => {
    const started = process.hrtime.bigint();
    res.once("close", () => {
      const labels = {
        route: label((req.url ?? "/").split("?")[0]),
        method: KNOWN_METHODS.has(req.method ?? "") ? req.method! : "other",
        status: res.writableFinished ? String(res.statusCode) : "aborted",
      };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
  };
}

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The overload guard's refusals, by class (counted by its limiter; read at each scrape). */
export function shedMetrics(limiter: Limiter): void {
  const seen = new Map<string, number>();
  new Counter({
    name: `${PREFIX}overload_shed_total`,
    help: "Requests the overload guard refused (503) by class; pages-shed counts page views refused after the light lane",
    labelNames: ["class"],
    collect() {
      for (const [name, stats] of Object.entries(limiter.snapshot())) {
        const delta = stats.shed - (seen.get(name) ?? 0);
        seen.set(name, stats.shed);
        this.inc({ class: name }, delta);
      }
    },
  });
}

/**
 * A server process's metrics setup: the process metrics, and (in a cluster worker) the answer to
 * the primary's collection requests, which prom-client installs with its AggregatorRegistry.
 */
export function serverProcessMetrics(): void {
  collectProcessMetrics();
  if (cluster.isWorker) new AggregatorRegistry();
}

/**
 * The cluster primary: answers a worker's METRICS_REQUEST with the sum of every worker's
 * metrics (prom-client's AggregatorRegistry, over the cluster's IPC channel).
 */
export function primaryMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: MetricsRequest | null) => {
    if (message?.type !== METRICS_REQUEST) return;
    const reply = (body: Omit<MetricsReply, "type" | "id">) => {
      if (worker.isConnected()) worker.send({ type: METRICS_REPLY, id: message.id, ...body } satisfies MetricsReply);
    };
    aggregator.clusterMetrics().then(
      (text) => reply({ text }),
      (err: unknown) => reply({ error: String((err as Error)?.message ?? err) }),
    );
  });
}
