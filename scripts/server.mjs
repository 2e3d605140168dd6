// Goodfund's HTTP server: Next.js behind a plain node:http server, so the API can see the
// socket's address. The client-IP header is always overwritten here, with a second header proving
// it (an HMAC under a key that never leaves this process): the app ignores a client-IP header
// without a valid proof, so a value sent by a client, or any under `next dev`, is never trusted.
// (With TRUST_PROXY=N the app reads X-Forwarded-For instead; see lib/api/client-ip.ts.)
//
// WEB_CONCURRENCY=N (or "auto": one per core) runs N server processes sharing the port (node:cluster),
// for Postgres deployments: one Node.js process uses one core. Embedded PGlite is one process.
import cluster from "node:cluster";
import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import os from "node:os";
import next from "next";
import { CONFIG_ERROR_EXIT, checkEnvOrExit, isConfigError, refuseToStart } from "./check-env.mjs";
import { coalesceWrites } from "./coalesce-writes.mjs";
import { createOverloadGuard } from "./overload.mjs";

// A bad configuration exits here, before Next.js loads and before any worker is forked.
await checkEnvOrExit();
const processes = webConcurrency();
if (cluster.isPrimary && processes > 1) {
  superviseWorkers(processes);
} else {
  await serve();
}

function webConcurrency() {
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
function superviseWorkers(n) {
  let stopping = false;
  const restarts = [];
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
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
      setTimeout(() => process.exit(0), 6_000).unref();
    });
  }
}

async function serve() {
  const CLIENT_IP_HEADER = "x-goodfund-client-ip";
  const CLIENT_IP_PROOF_HEADER = "x-goodfund-client-ip-proof";
  // Route handlers run in this process and read the key from here (each cluster worker has its own).
  const clientIpKey = randomBytes(32);
  globalThis[Symbol.for("goodfund.client-ip-key")] = clientIpKey;
  // Each address's proof is made once: a client's every request comes from the same few addresses.
  // Bounded: a flood of distinct addresses starts the table over instead of growing it.
  const proofs = new Map();
  const proofOf = (address) => {
    let proof = proofs.get(address);
    if (proof === undefined) {
      if (proofs.size >= 4096) proofs.clear();
      proof = createHmac("sha256", clientIpKey).update(address).digest("base64url");
      proofs.set(address, proof);
    }
    return proof;
  };
  const port = Number(process.env.PORT || 3000);
  const hostname = process.env.HOSTNAME || "0.0.0.0";
  const dev = process.env.NODE_ENV === "development";

  const app = next({ dev, hostname, port, dir: process.cwd() });
  const handle = app.getRequestHandler();
  try {
    await app.prepare();
  } catch (err) {
    // The instrumentation hook (migrations, worker) failed: exit before listening.
    if (isConfigError(err)) refuseToStart(err);
    console.error(JSON.stringify({ level: "error", msg: "server failed to start", err: String(err?.stack ?? err) }));
    process.exit(1);
  }

  // Under overload, requests are queued briefly and then shed by class before Next.js sees them
  // (./overload.mjs; OVERLOAD_SHEDDING=0 turns it off).
  const { guard } = createOverloadGuard();

  // A few hot API routes are handed their requests directly, past Next.js's router
  // (lib/api/direct-routes.ts, registered at start-up); DIRECT_ROUTES=0 sends everything through Next.js.
  const DIRECT = Symbol.for("goodfund.direct-routes");
  const directOn = process.env.DIRECT_ROUTES !== "0";
  // Node enforces headersTimeout/requestTimeout only when it checks its connections, every 30 s by
  // default: a slowloris connection would live 22–30 s instead of 10.
  const server = http.createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    const address = req.socket.remoteAddress || "";
    req.headers[CLIENT_IP_HEADER] = address;
    req.headers[CLIENT_IP_PROOF_HEADER] = proofOf(address);
    void guard(req, res, () => (directOn && globalThis[DIRECT]?.(req, res)) || serveNext(req, res));
  });
  const serveNext = (req, res) =>
    handle(req, res).catch((err) => {
      console.error(JSON.stringify({ level: "error", msg: "request failed", err: String(err) }));
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader("content-type", "application/json");
      }
      res.end(JSON.stringify({ error: "Internal server error", status: 500 }));
    });
  // A response's headers and body leave in one write, not two (./coalesce-writes.mjs).
  server.on("connection", coalesceWrites);
  // Slow clients: a request must deliver its headers within 10 s and its body within 30 s.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;

  server.listen(port, hostname, () => {
    const shown = hostname === "0.0.0.0" || hostname === "::" ? "localhost" : hostname;
    console.log(`Goodfund is ready on http://${shown}:${port}`);
  });

  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      setTimeout(() => process.exit(0), 5_000).unref();
    });
  }
}
