// Goodfund's HTTP server: Next.js behind a plain node:http server, one pipeline for every request:
//
//   request → client address stamped (./client-ip.ts) → overload guard: body read, then a slot of
//   the request's class (./overload.ts) → a build file in Brotli (./static-brotli.ts), a fast route
//   (./fast-path.ts; once the app's start-up is done) or Next.js (compressed as it streams) →
//   withRoute's steps (lib/api/route.ts) → service → database
//
// The fast routes and the overload classes of API routes come from the routes' own withRoute
// declarations (./routes.generated.ts, written by `npm run routes:generate`).
//
// `--dev` runs Next.js's development mode inside the same server (`npm run dev`).
// WEB_CONCURRENCY=N (or "auto": one per core) runs N server processes sharing the port
// (node:cluster), for Postgres deployments: one Node.js process uses one core. Embedded PGlite is
// one process.
import cluster from "node:cluster";
import { readdirSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { constants as zlib } from "node:zlib";
import compression from "compression";
import next from "next";
import type { Env } from "@/lib/env";
import { SERVER_RUNS_WORKER_ENV } from "@/lib/jobs/server-runs-worker";
import type { WorkerHandle } from "@/lib/jobs/worker";
import { CONFIG_ERROR_EXIT, checkEnvOrExit, isConfigError, refuseToStart } from "./check-env";
import { clientIpStamper } from "./client-ip";
import { primaryMetrics } from "./metrics";
import { SERVER_STREAM_OPTIONS } from "./request-body";
import { staticBrotli } from "./static-brotli";

const dev = process.argv.includes("--dev");
if (dev) (process.env as Record<string, string>).NODE_ENV = "development";
// tsx, which loads this server, turns Node's source-map support on; in production that makes
// Node read and keep the source map of every server chunk Next.js loads (seconds of CPU at start,
// tens of MiB of heap for the life of the process). Node's default, off, is restored before
// Next.js loads; development keeps them for readable stack traces.
if (!dev) process.setSourceMapsEnabled(false);

function main() {
  // A bad configuration exits here, before Next.js loads and before any worker is forked.
  const env = checkEnvOrExit({ dev });
  const processes = dev ? 1 : webConcurrency();
  if (cluster.isPrimary && processes > 1) superviseWorkers(processes, env.SHUTDOWN_GRACE_SECONDS * 1000);
  else void serve(env);
}

function webConcurrency(): number {
  const raw = (process.env.WEB_CONCURRENCY || "1").trim();
  const n = raw === "auto" ? os.availableParallelism() : Number(raw);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`WEB_CONCURRENCY must be a positive integer or "auto", got "${raw}"`);
    process.exit(1);
  }
  if (n > 1 && !process.env.DATABASE_URL) {
    console.warn(
      JSON.stringify({ level: "warn", msg: "WEB_CONCURRENCY > 1 needs DATABASE_URL (embedded PGlite is one process); serving with one" }),
    );
    return 1;
  }
  return n;
}

/**
 * The primary: forks the workers, replaces one that dies, and stops them all on SIGINT/SIGTERM.
 * (With the memory rate limiter each process counts on its own; lib/ratelimit warns.)
 */
function superviseWorkers(n: number, graceMs: number) {
  let stopping = false;
  const restarts: number[] = [];
  // One scrape of GET /api/metrics sums every server process's metrics (./metrics.ts).
  primaryMetrics();
  for (let i = 0; i < n; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (code === CONFIG_ERROR_EXIT) {
      // A refused configuration: another process would be refused too, so stop instead of looping.
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      process.exit(CONFIG_ERROR_EXIT);
    }
    console.error(JSON.stringify({ level: "error", msg: "server process died; starting another", pid: worker.process.pid, code, signal }));
    const now = Date.now();
    restarts.push(now);
    while (restarts[0] < now - 60_000) restarts.shift();
    if (restarts.length > 10) {
      console.error(JSON.stringify({ level: "error", msg: "server processes keep dying; giving up" }));
      process.exit(1);
    }
    cluster.fork();
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
      // Each server process finishes its requests within the grace period (see serve); this is the backstop.
      setTimeout(() => process.exit(0), graceMs + 5_000).unref();
    });
  }
}

/** GET /api/health, which answers while the process serves, start-up included. */
function isLiveness(req: http.IncomingMessage): boolean {
  return req.method === "GET" && (req.url ?? "").split("?")[0] === "/api/health";
}

/**
 * Resolves once this server has answered one request through Next.js, which it holds until the
 * app's start-up is done: GET /api/ready from the server's own address (loopback when it listens
 * on every address), again after a moment while the socket does not answer.
 */
async function untilStarted(port: number, hostname: string): Promise<void> {
  const host = hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname.includes(":") ? `[${hostname}]` : hostname;
  for (;;) {
    try {
      const res = await fetch(`http://${host}:${port}/api/ready`, { headers: { "cache-control": "no-store" } });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** The files of the public folder and the app's icons, by path: served as they are, never shed. */
function staticFiles(root: string): Set<string> {
  const files = new Set(["/favicon.ico", "/icon.png", "/apple-icon.png"]);
  try {
    for (const f of readdirSync(path.join(root, "public"), { recursive: true, encoding: "utf8" }))
      files.add(`/${f.split(path.sep).join("/")}`);
  } catch {
    // no public folder
  }
  return files;
}

async function serve(env: Env) {
  // Before Next.js loads: the app reads the key from its environment.
  const stamp = clientIpStamper(env.TRUST_PROXY);
  // The worker runs here rather than from the app's start-up, so that SIGTERM can stop it (below).
  const runWorker = !env.WORKER_DISABLED;
  if (runWorker) process.env[SERVER_RUNS_WORKER_ENV] = "1";
  const port = Number(process.env.PORT || 3000);
  const hostname = process.env.HOSTNAME || "0.0.0.0";
  const root = process.cwd();

  const app = next({ dev, hostname, port, dir: root });
  const handle = app.getRequestHandler();
  try {
    await app.prepare();
  } catch (err) {
    // The instrumentation hook (migrations, worker) failed: exit before listening.
    if (isConfigError(err)) refuseToStart(err);
    console.error(JSON.stringify({ level: "error", msg: "server failed to start", err: String((err as Error)?.stack ?? err) }));
    process.exit(1);
  }

  // Loaded once Next.js is prepared: the route modules (and next/server) need the request scope
  // Next.js sets up for the process.
  const [
    { fastPath },
    { createOverloadGuard },
    { FAST_ROUTES, API_ROUTE_CLASSES, UPLOAD_ROUTES, API_ROUTE_PATHS },
    { requestMetrics, routeLabeler, serverProcessMetrics, shedMetrics },
  ] = await Promise.all([import("./fast-path"), import("./overload"), import("./routes.generated"), import("./metrics")]);
  // Under overload, requests are queued briefly and then shed by class before Next.js sees them;
  // OVERLOAD_SHEDDING=0 turns it off.
  const files = staticFiles(root);
  const { guard, limiter } = createOverloadGuard({ routeClasses: API_ROUTE_CLASSES, uploadRoutes: UPLOAD_ROUTES, staticFiles: files });
  // Every request counted by route pattern (GET /api/metrics; ./metrics.ts).
  serverProcessMetrics();
  shedMetrics(limiter);
  const measure = requestMetrics(routeLabeler(API_ROUTE_PATHS, files));
  // FAST_ROUTES=0 sends every request through Next.js (the control for measuring the fast path).
  const fast = process.env.FAST_ROUTES === "0" ? () => undefined : fastPath(FAST_ROUTES, API_ROUTE_PATHS);
  // The build's scripts and stylesheets in Brotli (./static-brotli.ts); development serves its own.
  const brotli = dev ? () => undefined : staticBrotli(path.join(root, ".next", "static"));
  // What Next.js serves (pages, their payloads, API answers) is compressed here as it streams, in
  // Brotli for the browsers that take it and gzip for the rest: Next.js itself would only use
  // gzip (its own compression is off in next.config.ts). Quality 5 is fast enough to compress a
  // page as it streams (bench/README.md, "Pages").
  const compress = compression({ brotli: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } } });
  const serveNext = (req: http.IncomingMessage, res: http.ServerResponse) => {
    compress(req, res, () => {});
    return handle(req, res).catch((err: unknown) => {
      console.error(JSON.stringify({ level: "error", msg: "request failed", err: String(err) }));
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("content-type", "application/json");
      }
      res.end(JSON.stringify({ error: "Internal server error", status: 500 }));
    });
  };
  // Node enforces headersTimeout/requestTimeout only when it checks its connections, every 30 s by
  // default: a slowloris connection would live 22–30 s instead of 10.
  let shuttingDown = false;
  // Next.js runs the app's start-up (instrumentation.ts: migrations, the demo's first seed) after
  // it is prepared, and holds the requests it gets until that is done. Until then every request
  // but the liveness probe (which touches no database) goes to it; the fast path, the worker and
  // the "ready" line wait for one request through Next.js to be answered (untilStarted).
  let started = false;
  const server = http.createServer({ ...SERVER_STREAM_OPTIONS, connectionsCheckingInterval: 1_000 }, (req, res) => {
    if (shuttingDown) res.setHeader("connection", "close");
    stamp(req);
    measure(req, res);
    void guard(req, res, () => brotli(req, res) ?? (started || isLiveness(req) ? fast(req, res) : undefined) ?? serveNext(req, res));
  });
  // Slow clients: a request must deliver its headers within 10 s and its body within 30 s (the
  // guard refuses a body that takes more than 10 s to arrive).
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  // Next.js's development mode answers its hot-reload socket itself.
  if (dev) server.on("upgrade", app.getUpgradeHandler());

  let worker: WorkerHandle | null = null;
  server.listen(port, hostname, () => {
    void untilStarted(port, hostname).then(async () => {
      started = true;
      if (runWorker && !shuttingDown) worker = (await import("@/lib/jobs/worker")).startWorker();
      const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
      console.log(`Goodfund is ready on http://${shown}:${port}`);
    });
  });

  // SIGTERM (a rolling deploy, systemd, a platform scaling down) or SIGINT: stop accepting
  // connections, let the requests in flight finish (at most SHUTDOWN_GRACE_SECONDS), stop the
  // worker (the row it is sending finishes; the rows it claimed but has not tried are given back,
  // so another instance takes them at once), then exit 0.
  const shutdown = (signal: NodeJS.Signals) => {
    if (shuttingDown) return;
    shuttingDown = true;
    const graceMs = env.SHUTDOWN_GRACE_SECONDS * 1000;
    console.log(JSON.stringify({ level: "info", msg: "shutting down", signal, graceMs }));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive connections between requests are closed at once, and each as soon as its request is answered.
    server.closeIdleConnections();
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const grace = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), graceMs).unref());
    void Promise.race([Promise.all([closed, worker?.stop()]), grace]).then(async (outcome) => {
      clearInterval(idle);
      if (outcome === "late") {
        console.error(JSON.stringify({ level: "warn", msg: "shutdown grace period over; closing the remaining connections" }));
        server.closeAllConnections();
      }
      // The spans still buffered, when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT).
      await (await import("@/lib/telemetry/tracing")).flushTraces();
      process.exit(0);
    });
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, shutdown);
}

main();
