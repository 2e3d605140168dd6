// `npm run bench`: measured speed of the production build on real Postgres, each figure next to
// a ceiling measured in the same run. See bench/README.md for what is measured and how.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres, { type Sql } from "postgres";
import type { Request } from "autocannon";
import { paymentIntentSucceeded as paymentIntentSucceededEvent, signedEvent } from "../lib/processor/event-factory";
import { findViolations, type Violation } from "../tests/helpers/invariants";
import {
  appDir,
  childPids,
  cpuSecondsOf,
  ensureBuild,
  fullGcLiveHeap,
  postgresCpuSeconds,
  rssOf,
  startServer,
  type Server,
} from "./lib/app";
import { succeedPaymentIntent } from "./lib/ceiling";
import { judgeGoals, printGoals, recordRun } from "./lib/goals";
import { closedLoop, httpLoad, pacedLoad, sampleActivity, send, withCpu, type Activity, type HttpLoad, type Measured } from "./lib/load";
import {
  DONATE_CAMPAIGN,
  HOT,
  OPS,
  OWNER,
  P2P_PAGES,
  P2P_PARENT,
  P2P_TEAMS,
  POPULAR_SLUG,
  REPORTS,
  seedBase,
  seedPeerToPeer,
  seedPendingPool,
  seedReports,
  vacuumAnalyze,
  type Pool,
} from "./lib/seed";

const num = (name: string, fallback: number) => {
  const v = process.env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number`);
  return n;
};

const cfg = {
  duration: num("BENCH_DURATION", 10),
  warmup: num("BENCH_WARMUP", 3),
  donations: num("BENCH_DONATIONS", 1_000_000),
  pendingPool: num("BENCH_PENDING_POOL", 30_000),
  poolSize: num("DATABASE_POOL_SIZE", 10),
  c: {
    ceiling: num("BENCH_CONNECTIONS", 50),
    donations: 50,
    public: num("BENCH_CONNECTIONS", 50),
    webhooks: num("BENCH_WEBHOOK_CONNECTIONS", 50),
    list: num("BENCH_LIST_CONNECTIONS", 10),
    summary: num("BENCH_SUMMARY_CONNECTIONS", 1),
  },
  only: process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((s) => s.trim())) : null,
  keepDb: process.env.BENCH_KEEP_DB === "1",
  /** Server processes for the scale-out rows (each its own `server/start.ts`, same database). */
  instances: Math.max(1, Math.floor(num("BENCH_INSTANCES", 1))),
  adminUrl: process.env.BENCH_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
};

const T0 = Date.now();
const elapsed = () => `${((Date.now() - T0) / 1000).toFixed(0).padStart(4)} s`;
const log = (s: string) => console.log(`[bench ${elapsed()}] ${s}`);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const wants = (name: string) => !cfg.only || cfg.only.has(name);

type Row = {
  name: string;
  group: string;
  m: Measured | null;
  /** Which ceiling the ratio is against, and the ratio (rps / ceiling rps). */
  ceiling?: { name: string; rps: number; ratio: number };
  goal?: { text: string; met: boolean };
  violations?: number;
  extra?: Record<string, unknown>;
  note?: string;
};
const rows: Row[] = [];

/** What the bench reads of POST /api/donations' answer. */
type CreatedForBench = { id: string; paymentIntentId: string | null; chargeAmountCents: number };

const WEBHOOK_SECRET = `whsec_bench_${randomBytes(16).toString("hex")}`;
const NEXTAUTH_SECRET = `bench-secret-${randomBytes(24).toString("hex")}`;
const SECRETS_KEY = randomBytes(32).toString("base64");

/** The `payment_intent.succeeded` Stripe would send for the pool's `i`th donation, from the app's event factory. */
function paymentIntentSucceeded(pool: Pool, i: number) {
  const pi = pool.paymentIntents[i];
  return paymentIntentSucceededEvent({
    account: pool.account,
    paymentIntentId: pi,
    amountCents: pool.amounts[i],
    currency: "usd",
    chargeId: `ch_${pi.slice(3)}`,
    destination: pool.account,
    description: "Spring appeal (Bench Operations Fund)",
    metadata: { donationId: pool.ids[i], orgId: pool.orgId },
  });
}

/** One signed `payment_intent.succeeded` delivery per call, for the next donation of the pool. */
function webhookRequests(pool: Pool): () => Request | null {
  let next = 0;
  return () => {
    if (next >= pool.ids.length) return null;
    const { payload, signature } = signedEvent(paymentIntentSucceeded(pool, next++), WEBHOOK_SECRET);
    return {
      method: "POST",
      path: "/api/processor/webhooks",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    };
  };
}

function ceilingCalls(sql: Sql, pool: Pool, appUrl: string): () => Promise<unknown> | null {
  let next = 0;
  return () => {
    if (next >= pool.ids.length) return null;
    const i = next++;
    return succeedPaymentIntent(
      sql,
      {
        eventId: `evt_${randomBytes(12).toString("hex")}`,
        paymentIntentId: pool.paymentIntents[i],
        donationId: pool.ids[i],
        chargeId: `ch_${pool.paymentIntents[i].slice(3)}`,
        amountReceived: pool.amounts[i],
      },
      appUrl,
    );
  };
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? "" : n.toFixed(digits));
/** A paced run's slowest second and the load generator's own lateness (`pacedLoad`). */
const pacedText = (m: Measured) =>
  m.paced
    ? `slowest second: at ${m.paced.worstSecond.at} s, p99 ${fmt(m.paced.worstSecond.p99)} ms, max ${fmt(m.paced.worstSecond.max)} ms; the load generator's latest send ${fmt(m.paced.maxSendLagMs)} ms after its due time`
    : "";
const pct = (r: number | undefined) => (r === undefined ? "" : `${(r * 100).toFixed(0)} %`);

function printTable() {
  const header = ["scenario", "conc", "req/s", "p50 ms", "p99 ms", "errors", "app CPU", "pg CPU", "ceiling", "ratio", "goal", "invariants"];
  const lines = rows.map((r) => [
    r.name,
    r.m ? String(r.m.concurrency) : "",
    r.m ? fmt(r.m.rps) : "n/a",
    r.m ? fmt(r.m.p50) : "",
    r.m ? fmt(r.m.p99) : "",
    r.m ? String(r.m.errors) : "",
    r.m?.cpu ? `${fmt(r.m.cpu.serverMs, 2)} ms ${fmt(r.m.cpu.serverCorePct, 0)}%` : "",
    r.m?.cpu ? `${fmt(r.m.cpu.postgresMs, 2)} ms ${fmt(r.m.cpu.postgresCorePct, 0)}%` : "",
    r.ceiling ? `${r.ceiling.name} ${fmt(r.ceiling.rps, 0)}/s` : "",
    r.ceiling ? pct(r.ceiling.ratio) : "",
    r.goal ? `${r.goal.met ? "MET" : "NOT MET"}: ${r.goal.text}` : "",
    r.violations === undefined ? "" : r.violations === 0 ? "exact" : `${r.violations} VIOLATIONS`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 || i >= 8 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log(`\n${line(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const l of lines) console.log(line(l));
  console.log(
    "  app CPU / pg CPU: CPU time of the server process / of the database's Postgres backends per answered request, and as a share of one core (the server is one Node.js thread: ~100 % is its limit; the machine has 2 cores for everything)",
  );
  for (const r of rows) {
    if (r.m && r.m.requests === 0) console.log(`  ${r.name}: NO request was answered within the measured ${fmt(r.m.seconds)} s`);
    if (r.note) console.log(`  ${r.name}: ${r.note}`);
    if (r.m?.note) console.log(`  ${r.name}: ${r.m.note}`);
  }
}

async function main() {
  log(
    `load average ${load()} (1/5/15 min) on ${os.cpus().length} cores; ${JSON.stringify({ duration: cfg.duration, warmup: cfg.warmup, donations: cfg.donations, poolSize: cfg.poolSize })}`,
  );
  const app = appDir(log);
  const dbName = `goodfund_bench_${Date.now()}`;
  const admin = postgres(cfg.adminUrl, { max: 1, onnotice: () => {} });
  const dbUrl = Object.assign(new URL(cfg.adminUrl), { pathname: `/${dbName}` }).toString();
  let server: Server | undefined;
  let others: Server[] = [];
  let sql: Sql | undefined;
  const timings: Record<string, number> = {};
  let cleaned = false;
  // Interrupted (Ctrl-C, a kill): still stop the server and drop the database.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping the server and dropping ${dbName}`);
      cleanup().finally(() => process.exit(130));
    });
  }
  const mark = (k: string, since: number) => (timings[k] = Math.round((Date.now() - since) / 100) / 10);
  try {
    let t = Date.now();
    const build = await ensureBuild(app.dir);
    mark("build", t);
    log(build.built ? `production build made in ${build.seconds.toFixed(0)} s` : "production build is up to date");

    t = Date.now();
    await admin.unsafe(`create database "${dbName}"`);
    process.env.DATABASE_URL = dbUrl;
    process.env.NEXTAUTH_SECRET = NEXTAUTH_SECRET;
    process.env.LOG_LEVEL = "warn";
    // The env check (lib/env.ts) wants a payments mode with DATABASE_URL; the server runs sandbox.
    process.env.PAYMENTS_MODE ??= "sandbox";
    process.env.SECRETS_ENCRYPTION_KEY = SECRETS_KEY;
    // The migrations of the tree being served (db/migrate.ts reads them from the working directory).
    const cwd = process.cwd();
    process.chdir(app.dir);
    try {
      const { runMigrations } = await import("../db/migrate");
      await runMigrations();
    } finally {
      process.chdir(cwd);
    }
    log(`database ${dbName} created and migrated`);

    sql = postgres(dbUrl, { max: 4, onnotice: () => {}, connection: { application_name: "goodfund-bench-seed" } });
    await seedBase(sql);
    await seedPeerToPeer(sql);
    const pools = {
      httpSpread: await seedPendingPool(sql, "whs", cfg.pendingPool, "spread"),
      httpHot: await seedPendingPool(sql, "whh", cfg.pendingPool, "hot"),
      dbSpread: await seedPendingPool(sql, "dbs", cfg.pendingPool, "spread"),
      dbHot: await seedPendingPool(sql, "dbh", cfg.pendingPool, "hot"),
    };
    log(`organizations, 1 000 campaigns, 4 × ${cfg.pendingPool} PENDING donations seeded`);
    const withReports = wants("summary") || wants("export") || wants("public");
    if (withReports && cfg.donations > 0) {
      log(`seeding ${cfg.donations} donations for the reports organization…`);
      await seedReports(sql, cfg.donations, log);
    }
    await vacuumAnalyze(sql);
    // Dirty pages written back by the kernel during a measurement queue the commits' WAL flushes
    // behind them on the disk: every request stalls at once for 100–170 ms on this machine, none
    // of it in the app (p99 of the paced run 44–153 ms with them, 13–36 ms without). The seed's
    // are written out before anything is measured; see also the paced run.
    // (CHECKPOINT needs a superuser or pg_checkpoint; without one the run goes on and says so.)
    const flushToDisk = async (before: string) => {
      await sql!`checkpoint`.catch((e: Error) => log(`  no checkpoint before ${before} (${e.message}): it may include write-back stalls`));
      execFileSync("sync");
    };
    await flushToDisk("the first measurement");
    mark("seed", t);
    log(`seeded and vacuumed in ${timings.seed} s`);

    t = Date.now();
    const serverEnv = {
      DATABASE_URL: dbUrl,
      NEXTAUTH_SECRET,
      PROCESSOR_WEBHOOK_SECRET: WEBHOOK_SECRET,
      WORKER_DISABLED: "1",
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      STRIPE_SECRET_KEY: undefined,
      PAYMENTS_MODE: "sandbox",
      SECRETS_ENCRYPTION_KEY: SECRETS_KEY,
      RATE_LIMIT_PUBLIC_PER_MINUTE: "100000000",
      RATE_LIMIT_AUTHENTICATED_PER_MINUTE: "100000000",
      FAILED_PAYMENTS_LIMIT: "100000000",
      // The bench measures what the app itself serves: no overload shedding in front of it.
      OVERLOAD_SHEDDING: "0",
      RATE_LIMIT_BACKEND: process.env.BENCH_RATE_LIMIT_BACKEND ?? "memory",
      DATABASE_POOL_SIZE: String(cfg.poolSize),
      APP_URL: undefined,
    };
    server = await startServer(
      app.dir,
      serverEnv,
      // e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to see where the server spends its time.
      process.env.BENCH_SERVER_NODE_ARGS ? process.env.BENCH_SERVER_NODE_ARGS.split(" ").filter(Boolean) : [],
    );
    mark("serverStart", t);
    server.proc.once("exit", (code, signal) => {
      if (!cleaned) log(`the server exited unexpectedly (${code ?? signal}); its last output:\n${server?.output().slice(-3000)}`);
    });
    const url = server.url;
    log(`server up at ${url} (pid ${server.serverPid()}) in ${timings.serverStart} s`);
    const { issueSessionToken } = await import("../lib/services/sessions/session-token");
    const token = await issueSessionToken({ sub: OWNER.id, email: OWNER.email, name: OWNER.name });
    const auth = { authorization: `Bearer ${token}` };
    const db = drizzle(postgres(dbUrl, { max: 2, onnotice: () => {} }), { casing: "snake_case" });
    const check = async (orgIds: string[]): Promise<Violation[]> => {
      const started = Date.now();
      // Fresh statistics first: the events just moved thousands of donations out of PENDING, and
      // with the old ones the checker's correlated subqueries pick nested loops that take minutes.
      await sql!`analyze donations, campaigns, donors, outbox, donation_events, campaign_daily_totals`;
      const v = await findViolations(db as never, orgIds);
      log(
        `  invariants (findViolations) over ${orgIds.join(", ")}: ${v.length === 0 ? "exact" : `${v.length} violations, e.g. ${JSON.stringify(v.slice(0, 3))}`} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
      return v;
    };
    const d = { duration: cfg.duration, warmup: cfg.warmup };
    const serverPid = server.serverPid();
    // The server process and, with WEB_CONCURRENCY > 1, its cluster workers.
    const serverCpu = (pid: number) => [pid, ...childPids(pid)].reduce((sum, p) => sum + (cpuSecondsOf(p) ?? 0), 0);
    const cpuProbes = { server: () => (serverPid ? serverCpu(serverPid) : null), postgres: () => postgresCpuSeconds(dbName) };
    /** Warm-up (not counted), then the measured run with the CPU it cost. */
    const measure = async (o: HttpLoad) => {
      if (o.warmup) await httpLoad({ ...o, duration: o.warmup, warmup: 0 });
      return withCpu(cpuProbes, () => httpLoad({ ...o, warmup: 0 }));
    };

    // Framework ceiling: the cheapest JSON route of the same build, Next's catch-all JSON 404 for
    // an unknown /api path (app/api/[...path]/route.ts): routing, a handler, a JSON body; no
    // database, no auth, no rate limiter. Its answers are 404 by design (not counted as errors).
    const ceilingRun = async (label: string) => {
      const m = await measure({ url: `${url}/api/bench-ceiling-unknown-path`, connections: cfg.c.ceiling, ...d });
      const unexpected = Object.entries(m.statusCodes)
        .filter(([code]) => code !== "404")
        .reduce((a, [, n]) => a + n, 0);
      m.errors = unexpected;
      log(`${label}: ${fmt(m.rps)} req/s, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms (load ${load()})`);
      return m;
    };
    const fw = await ceilingRun("framework ceiling (JSON 404 of an unknown /api path)");
    rows.push({
      name: "framework ceiling: GET /api/<unknown> (JSON 404)",
      group: "ceiling",
      m: fw,
      note: "answers 404 by design: the cheapest JSON route in the build (no DB, no auth); errors counts anything but 404",
    });
    const vsFw = (m: Measured) => ({ name: "framework", rps: fw.rps, ratio: m.rps / fw.rps });

    if (wants("donations")) {
      let n = 0;
      const tag = randomBytes(3).toString("hex");
      const donation = (): Request => ({
        method: "POST",
        path: "/api/donations",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          campaignId: DONATE_CAMPAIGN,
          amount: [2500, 5000, 10000, 1234][n % 4],
          email: `bench-${tag}-${n++}@example.org`,
          firstName: "Grace",
          lastName: "Hopper",
          message: n % 5 === 0 ? "For the spring appeal" : undefined,
          coverFees: n % 3 === 0,
        }),
      });
      const m = await measure({ url, connections: cfg.c.donations, ...d, method: "POST", next: donation });
      log(
        `POST /api/donations: ${fmt(m.rps)} req/s, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, ${m.errors} errors ${JSON.stringify(m.statusCodes)}`,
      );
      const v = await check([OPS.id]);
      rows.push({
        name: "POST /api/donations (sandbox, distinct emails), as fast as it answers",
        group: "write",
        m,
        ceiling: vsFw(m),
        goal: { text: "p99 < 50 ms at 50 connections, 0 errors", met: m.p99 < 50 && m.errors === 0 },
        violations: v.length,
        note: `closed loop: 50 clients each sending the next request as soon as the last is answered, so latency ≈ 50 / throughput (Little's law); the framework ceiling's own p99 at 50 connections is ${fmt(fw.p99)} ms`,
      });
      // Up to 50 connections at half that rate, evenly spaced: the latency a donor sees when the
      // server is busy but not saturated.
      const rate = Math.max(1, Math.round(m.rps / 2));
      // The closed loop left thousands of rows' pages dirty: written out now, not during the paced run.
      await flushToDisk("the paced run");
      // A warm-up at the same pace first (not counted), as for every closed loop: the paced client
      // starts with no open connection, and its first second would measure TCP and keep-alive setup.
      if (cfg.warmup > 0) await pacedLoad({ url, connections: cfg.c.donations, duration: cfg.warmup, rate, next: donation });
      const paced = await withCpu(cpuProbes, () =>
        pacedLoad({ url, connections: cfg.c.donations, duration: cfg.duration, rate, next: donation }),
      );
      log(
        `POST /api/donations paced at ${rate} req/s: p50 ${fmt(paced.p50)} ms, p99 ${fmt(paced.p99)} ms, ${paced.errors} errors; ${pacedText(paced)}`,
      );
      const v2 = await check([OPS.id]);
      rows.push({
        name: `POST /api/donations, ≤ 50 connections, ${rate} req/s evenly spaced (half of the above)`,
        group: "write",
        m: paced,
        goal: { text: "p99 < 50 ms at 50 connections, 0 errors", met: paced.p99 < 50 && paced.errors === 0 },
        violations: v2.length,
      });
    }

    const monitor = postgres(dbUrl, { max: 1, onnotice: () => {}, connection: { application_name: "goodfund-bench-monitor" } });
    const activityText = (a: Activity) =>
      `connections: ${fmt(a.active)} running a statement, ${fmt(a.idleInTransaction)} idle in transaction (waiting for the app), ${fmt(a.waitingOnLock)} of the running ones blocked on a lock, ${fmt(a.idle)} idle`;
    // The DB ceiling's pool: the app's size and prepared statements, as the app sends them
    // (db/index.ts).
    const ceilingSql = postgres(dbUrl, {
      max: cfg.poolSize,
      prepare: true,
      onnotice: () => {},
      connection: { application_name: "goodfund-bench" },
    });
    const webhookScenario = async (label: string, httpPool: Pool, dbPool: Pool, orgId: string, goalRatio: number) => {
      const dbCalls = ceilingCalls(ceilingSql, dbPool, url);
      await closedLoop(dbCalls, { concurrency: cfg.c.webhooks, duration: cfg.warmup });
      let stopSampling = sampleActivity(monitor, "goodfund-bench");
      const dbm = await withCpu(cpuProbes, () => closedLoop(dbCalls, { concurrency: cfg.c.webhooks, duration: cfg.duration }));
      const dbActivity = await stopSampling();
      log(
        `DB ceiling (${label}): ${fmt(dbm.rps)} tx/s, p50 ${fmt(dbm.p50)} ms, p99 ${fmt(dbm.p99)} ms, ${dbm.errors} errors (load ${load()}); ${activityText(dbActivity)}`,
      );
      const dv = await check([orgId]);
      rows.push({
        name: `DB ceiling: payment_intent.succeeded SQL, ${label}`,
        group: "ceiling",
        m: dbm,
        violations: dv.length,
        extra: { activity: dbActivity },
        note: `the webhook's transaction straight on Postgres with the postgres driver (prepared statements, as the app sends them), pool ${cfg.poolSize}, ${cfg.c.webhooks} in flight; the bench process spent ${fmt(dbm.cpu?.benchMs, 2)} ms CPU per transaction`,
      });
      const requests = webhookRequests(httpPool);
      await httpLoad({ url, connections: cfg.c.webhooks, duration: cfg.warmup, method: "POST", next: requests });
      stopSampling = sampleActivity(monitor, "goodfund");
      const m = await measure({ url, connections: cfg.c.webhooks, duration: cfg.duration, method: "POST", next: requests });
      const appActivity = await stopSampling();
      log(
        `webhooks (${label}): ${fmt(m.rps)} req/s, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, ${m.errors} errors ${JSON.stringify(m.statusCodes)} (load ${load()}); ${activityText(appActivity)}`,
      );
      const v = await check([orgId]);
      const ceiling = Math.min(fw.rps, dbm.rps);
      const ratio = m.rps / ceiling;
      rows.push({
        name: `webhooks payment_intent.succeeded, ${label}`,
        group: "write",
        m,
        ceiling: { name: fw.rps <= dbm.rps ? "framework" : "DB", rps: ceiling, ratio },
        goal: { text: `≥ ${goalRatio * 100} % of min(framework, DB), 0 errors`, met: ratio >= goalRatio && m.errors === 0 },
        violations: v.length,
        extra: { vsFramework: m.rps / fw.rps, vsDb: m.rps / dbm.rps, appActivity, dbActivity },
        note: `app's pool: ${activityText(appActivity)}; DB ceiling's pool: ${activityText(dbActivity)}`,
      });
    };
    if (wants("webhooks")) {
      await webhookScenario("spread over 1 000 campaigns", pools.httpSpread, pools.dbSpread, OPS.id, 0.5);
      await webhookScenario("one hot campaign", pools.httpHot, pools.dbHot, HOT.id, 0.5);
    }
    await monitor.end({ timeout: 5 });
    await ceilingSql.end({ timeout: 5 });

    if (wants("public")) {
      for (const [label, p] of [
        ["small campaign", `/api/public/orgs/${OPS.slug}/campaigns/campaign-0001`],
        [
          `popular campaign (${cfg.donations > 0 ? "~" + Math.round((cfg.donations * 0.2 * 0.9) / 1000) + "k gifts" : "no gifts"})`,
          `/api/public/orgs/${REPORTS.slug}/campaigns/${POPULAR_SLUG}`,
        ],
        [
          `peer-to-peer parent (${P2P_PAGES} fundraiser pages, ${P2P_TEAMS} teams)`,
          `/api/public/orgs/${HOT.slug}/campaigns/${P2P_PARENT.slug}`,
        ],
      ] as const) {
        const probe = await fetch(`${url}${p}`);
        const bytes = (await probe.arrayBuffer()).byteLength;
        const m = await measure({ url: `${url}${p}`, connections: cfg.c.public, ...d });
        log(
          `public view, ${label}: ${fmt(m.rps)} req/s, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, ${m.errors} errors; ${bytes} bytes (load ${load()})`,
        );
        rows.push({ name: `GET public campaign view, ${label}`, group: "read", m, ceiling: vsFw(m), extra: { responseBytes: bytes } });
        if (p.includes(P2P_PARENT.slug)) {
          // The parent's view as supporters share it: at half the rate above, evenly spaced, the
          // latency of a busy but not saturated server (the closed loop's is 50 / throughput).
          const rate = Math.max(1, Math.round(m.rps / 2));
          const view = (): Request => ({ method: "GET", path: p });
          if (cfg.warmup > 0) await pacedLoad({ url, connections: cfg.c.public, duration: cfg.warmup, rate, next: view });
          const paced = await pacedLoad({ url, connections: cfg.c.public, duration: cfg.duration, rate, next: view });
          log(
            `public view, ${label}, paced at ${rate} req/s: p50 ${fmt(paced.p50)} ms, p99 ${fmt(paced.p99)} ms, ${paced.errors} errors; ${pacedText(paced)}`,
          );
          rows.push({
            name: `GET public campaign view, ${label}, ${rate} req/s evenly spaced (half of the above)`,
            group: "read",
            m: paced,
            goal: { text: "p99 < 50 ms, 0 errors", met: paced.p99 < 50 && paced.errors === 0 },
          });
        }
      }
    }

    if (wants("list")) {
      const p = `/api/orgs/${OPS.slug}/campaigns`;
      const probe = await fetch(`${url}${p}`, { headers: auth });
      const body = (await probe.json()) as { data: unknown[] };
      const bytes = JSON.stringify(body).length;
      const m = await measure({ url: `${url}${p}`, connections: cfg.c.list, headers: auth, ...d });
      log(
        `campaign list (${body.data.length} campaigns, ${bytes} bytes): ${fmt(m.rps)} req/s, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, ${m.errors} errors`,
      );
      rows.push({
        name: `GET /api/orgs/:org/campaigns (authenticated, ${body.data.length} campaigns, unpaged)`,
        group: "read",
        m,
        ceiling: vsFw(m),
        extra: { responseBytes: bytes, campaigns: body.data.length },
      });
      const pp = `${p}?limit=20`;
      const m2 = await measure({ url: `${url}${pp}`, connections: cfg.c.list, headers: auth, ...d });
      log(`campaign list, first page of 20: ${fmt(m2.rps)} req/s, p50 ${fmt(m2.p50)} ms, p99 ${fmt(m2.p99)} ms, ${m2.errors} errors`);
      rows.push({ name: "GET /api/orgs/:org/campaigns?limit=20 (same org, one page)", group: "read", m: m2, ceiling: vsFw(m2) });
    }

    // A route not (yet) in the build answers the catch-all's 404 `Not found`.
    const routeExists = async (p: string) => {
      const res = await fetch(`${url}${p}`, { headers: auth });
      if (res.status !== 404) {
        await res.body?.cancel(); // an export would stream everything otherwise
        return true;
      }
      return !(await res.text()).includes('"Not found"');
    };

    if (wants("summary")) {
      const p = `/api/orgs/${REPORTS.slug}/reports/summary`;
      if (!(await routeExists(p))) {
        rows.push({ name: "GET reports/summary over 1 M donations", group: "read", m: null, note: "n/a (endpoint not present)" });
      } else {
        const [truth] = await sql<{ raised: string; n: string }[]>`
          select coalesce(sum(amount), 0) as raised, count(*) as n from donations where org_id = ${REPORTS.id} and status = 'SUCCEEDED'`;
        const body = (await (await fetch(`${url}${p}`, { headers: auth })).json()) as { raisedCents: number; count: number };
        const agrees = Number(truth.raised) === body.raisedCents && Number(truth.n) === body.count;
        log(
          `summary says raised ${body.raisedCents} / ${body.count} gifts; the donations table says ${truth.raised} / ${truth.n}: ${agrees ? "agree" : "DISAGREE"}`,
        );
        const now = new Date();
        const from = new Date(now.getTime() - 90 * 86_400_000 - 3_723_000).toISOString();
        for (const [label, q] of [
          ["all time", ""],
          ["90-day window, partial edge days", `?from=${encodeURIComponent(from)}&to=${encodeURIComponent(now.toISOString())}`],
        ] as const) {
          const m = await measure({
            url: `${url}${p}${q}`,
            connections: cfg.c.summary,
            headers: auth,
            duration: Math.max(3, cfg.duration / 2),
            warmup: 1,
          });
          log(`report summary, ${label}: ${fmt(m.rps)} req/s, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, ${m.errors} errors`);
          rows.push({
            name: `GET reports/summary, ${cfg.donations} donations, ${label}`,
            group: "read",
            m,
            ceiling: vsFw(m),
            goal: { text: "< 100 ms (p99)", met: m.p99 < 100 && m.errors === 0 },
            note: label === "all time" ? `totals ${agrees ? "agree" : "DISAGREE"} with the donations table` : undefined,
          });
        }
      }
    }

    if (wants("export")) {
      const p = `/api/orgs/${REPORTS.slug}/donations/export`;
      if (!(await routeExists(p))) {
        rows.push({ name: "CSV export of 1 M donations", group: "read", m: null, note: "n/a (endpoint not present)" });
      } else {
        const pid = server.serverPid()!;
        const exportOnce = async (q: string) => {
          const before = rssOf(pid) ?? 0;
          const cpuBefore = cpuSecondsOf(pid) ?? 0;
          let peak = before;
          const samples: number[] = [];
          const timer = setInterval(() => {
            const r = rssOf(pid);
            if (r !== null) {
              samples.push(r);
              peak = Math.max(peak, r);
            }
          }, 100);
          const started = performance.now();
          const res = await fetch(`${url}${p}${q}`, { headers: auth });
          const ttfb = performance.now() - started;
          let bytes = 0;
          let lines = 0;
          const reader = res.body!.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            bytes += value.byteLength;
            // indexOf is a native scan: the load generator should not take the CPU the server needs.
            for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) lines++;
          }
          const seconds = (performance.now() - started) / 1000;
          clearInterval(timer);
          const after = rssOf(pid) ?? 0;
          return {
            status: res.status,
            rows: lines - 1,
            bytes,
            seconds,
            ttfbMs: ttfb,
            rssBefore: before,
            rssPeak: peak,
            rssAfter: after,
            samples,
            cpuSeconds: (cpuSecondsOf(pid) ?? 0) - cpuBefore,
          };
        };
        const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
        const tenth = new Date(Date.now() - 73 * 86_400_000).toISOString();
        const small = await exportOnce(`?from=${encodeURIComponent(tenth)}`);
        log(
          `CSV export, last 73 days: ${small.rows} rows, ${mb(small.bytes)} in ${small.seconds.toFixed(1)} s; RSS ${mb(small.rssBefore)} → peak ${mb(small.rssPeak)}`,
        );
        const full = await exportOnce("");
        log(
          `CSV export, all: ${full.rows} rows, ${mb(full.bytes)} in ${full.seconds.toFixed(1)} s (${fmt(full.rows / full.seconds, 0)} rows/s, first byte ${fmt(full.ttfbMs)} ms); RSS ${mb(full.rssBefore)} → peak ${mb(full.rssPeak)} → ${mb(full.rssAfter)}; server CPU ${fmt(full.cpuSeconds)} s`,
        );
        const growthFull = full.rssPeak - full.rssBefore;
        const growthSmall = small.rssPeak - small.rssBefore;
        // Constant memory: memory that grew with the rows streamed would keep rising through the
        // download, so the second half of the 1 M-row download must not peak higher than its first
        // half (give or take what a GC cycle leaves). Comparing with the small export's peak instead
        // depends on where V8's heap happened to stand when each download began.
        const half = Math.floor(full.samples.length / 2);
        const firstHalfPeak = Math.max(full.rssBefore, ...full.samples.slice(0, half));
        const secondHalfPeak = Math.max(0, ...full.samples.slice(half));
        const lateGrowth = secondHalfPeak - firstHalfPeak;
        const constant = full.rows > 0 && half > 0 && lateGrowth <= 32 * 1024 * 1024;
        rows.push({
          name: `CSV export, ${full.rows} donations (one download)`,
          group: "read",
          m: {
            requests: 1,
            seconds: full.seconds,
            rps: full.rows / full.seconds,
            p50: full.seconds * 1000,
            p99: full.seconds * 1000,
            max: full.seconds * 1000,
            errors: full.status === 200 && full.rows === cfg.donations ? 0 : 1,
            statusCodes: { [full.status]: 1 },
            concurrency: 1,
          },
          goal: {
            text: "constant memory (RSS peak in the download's second half ≤ its first half's + 32 MiB)",
            met: constant,
          },
          extra: {
            constantMemory: constant,
            small: { ...small, samples: small.samples.length },
            full: { ...full, samples: full.samples.length },
            firstHalfPeak,
            secondHalfPeak,
          },
          note: `req/s column = rows/s; latency = whole download. Server RSS: ${mb(small.rssBefore)} → peak ${mb(small.rssPeak)} (+${mb(growthSmall)}) for ${small.rows} rows; ${mb(full.rssBefore)} → peak ${mb(full.rssPeak)} (+${mb(growthFull)}) for ${full.rows} rows (first half peak ${mb(firstHalfPeak)}, second half ${mb(secondHalfPeak)}), ${mb(full.rssAfter)} after; server CPU ${fmt(full.cpuSeconds)} s (${fmt((full.cpuSeconds * 1e6) / Math.max(1, full.rows), 0)} µs per row)`,
        });
      }
    }

    if (wants("imports")) {
      // A 100 000-row gifts file in Goodfund's import format: checked (streamed, parsed and
      // validated row by row) in one request, then committed and applied by the server in the
      // background, batch by batch, while its progress is polled. RSS is sampled throughout.
      const pid = server.serverPid()!;
      const ROWS = num("BENCH_IMPORT_ROWS", 100_000);
      const tag = randomBytes(3).toString("hex");
      const lines = ["email,first_name,last_name,amount,date,campaign,method,reference,external_id"];
      for (let i = 0; i < ROWS; i++) {
        const cents = 500 + ((i * 7919) % 100_000);
        const day = 1 + (i % 28);
        lines.push(
          `imp-${i % 20_000}@bench.example.org,Imported,Donor${i % 20_000},${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")},2023-${String(1 + (i % 12)).padStart(2, "0")}-${String(day).padStart(2, "0")},campaign-${String(i % 10).padStart(4, "0")},CHEQUE,,bench-${tag}-${i}`,
        );
      }
      const file = lines.join("\n") + "\n";
      let peak = rssOf(pid) ?? 0;
      const before = peak;
      const sampler = setInterval(() => {
        const r = rssOf(pid);
        if (r !== null) peak = Math.max(peak, r);
      }, 100);
      const mb = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
      // RSS keeps heap V8 has grown and not given back, so it cannot tell retained memory from
      // garbage not yet collected. With BENCH_SERVER_NODE_ARGS="--trace-gc" the server prints the
      // heap in use after each full (mark-compact) collection: the memory it really holds.
      const liveHeap = fullGcLiveHeap(server.proc);
      try {
        let started = performance.now();
        const res = await fetch(`${url}/api/orgs/${OPS.slug}/imports?preset=goodfund`, {
          method: "POST",
          headers: { ...auth, "content-type": "text/csv" },
          body: file,
        });
        const imp = (await res.json()) as { id: string; valid: number; invalid: number };
        const checkSeconds = (performance.now() - started) / 1000;
        const checkPeak = peak;
        log(
          `import check of ${ROWS} rows (${mb(file.length)}): ${res.status}, ${imp.valid} valid, ${imp.invalid} invalid in ${checkSeconds.toFixed(1)} s; RSS peak ${mb(checkPeak)}`,
        );
        liveHeap.phase = "apply";
        started = performance.now();
        const commit = await fetch(`${url}/api/imports/${imp.id}/commit`, { method: "POST", headers: auth });
        let status = commit.status === 202 ? "IMPORTING" : `commit ${commit.status}`;
        let processed = 0;
        while (status === "IMPORTING" && performance.now() - started < 600_000) {
          await new Promise((r) => setTimeout(r, 500));
          const now = (await (await fetch(`${url}/api/imports/${imp.id}`, { headers: auth })).json()) as {
            status: string;
            processed: number;
          };
          status = now.status;
          processed = now.processed;
        }
        const applySeconds = (performance.now() - started) / 1000;
        log(
          `import apply: ${status}, ${processed} rows in ${applySeconds.toFixed(1)} s (${fmt(processed / applySeconds, 0)} rows/s); RSS ${mb(before)} → peak ${mb(peak)}`,
        );
        const heap = liveHeap.summary();
        if (heap) log(`  live heap after full GCs: ${heap.text}`);
        const violations = await check([OPS.id]);
        const met =
          res.status === 201 &&
          imp.valid === ROWS &&
          status === "DONE" &&
          checkSeconds < 10 &&
          applySeconds < 60 &&
          violations.length === 0;
        rows.push({
          name: `CSV import of ${ROWS} gifts (check, then apply)`,
          group: "write",
          m: {
            requests: 1,
            seconds: checkSeconds + applySeconds,
            rps: processed / applySeconds,
            p50: checkSeconds * 1000,
            p99: applySeconds * 1000,
            max: applySeconds * 1000,
            errors: status === "DONE" ? 0 : 1,
            statusCodes: { [res.status]: 1 },
            concurrency: 1,
          },
          goal: { text: "checked in < 10 s, applied in < 60 s, invariants exact", met },
          violations: violations.length,
          extra: { checkSeconds, applySeconds, rssBefore: before, rssPeakCheck: checkPeak, rssPeak: peak, liveHeap: heap },
          note:
            `req/s column = rows applied/s; p50 = check time, p99 = apply time. Server RSS ${mb(before)} → peak ${mb(checkPeak)} while checking, ${mb(peak)} overall` +
            (heap ? `; live heap after full GCs: ${heap.text}` : ""),
        });
      } finally {
        clearInterval(sampler);
        liveHeap.stop();
      }
    }

    if (wants("e2e")) {
      // Whole donations as a donor and the processor make them: POST /api/donations, then the
      // signed payment_intent.succeeded for the payment intent it answered. Closed loop.
      const tag = randomBytes(3).toString("hex");
      let n = 0;
      const agent = new http.Agent({ keepAlive: true, maxSockets: cfg.c.donations });
      const base = new URL(url);
      const whole = async () => {
        const i = n++;
        const created = await send(agent, base, {
          method: "POST",
          path: "/api/donations",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            campaignId: DONATE_CAMPAIGN,
            amount: [2500, 5000, 10000, 1234][i % 4],
            email: `e2e-${tag}-${i}@example.org`,
            firstName: "Grace",
            lastName: "Hopper",
            coverFees: i % 3 === 0,
          }),
        });
        if (created.status !== 201 && created.status !== 200) throw new Error(`POST /api/donations answered ${created.status}`);
        const body = JSON.parse(created.body.toString("utf8")) as { data?: CreatedForBench } & CreatedForBench;
        const d = body.data ?? body;
        if (!d.paymentIntentId) throw new Error("the created donation has no payment intent");
        const event = paymentIntentSucceededEvent({
          account: "acct_sandbox_benchops",
          paymentIntentId: d.paymentIntentId,
          amountCents: d.chargeAmountCents,
          currency: "usd",
          chargeId: `ch_${d.paymentIntentId.slice(3)}`,
          destination: "acct_sandbox_benchops",
          description: "Spring appeal (Bench Operations Fund)",
          metadata: { donationId: d.id, orgId: OPS.id },
        });
        const { payload, signature } = signedEvent(event, WEBHOOK_SECRET);
        const hook = await send(agent, base, {
          method: "POST",
          path: "/api/processor/webhooks",
          headers: { "content-type": "application/json", "stripe-signature": signature },
          body: payload,
        });
        if (hook.status >= 300) throw new Error(`the webhook answered ${hook.status}`);
      };
      await closedLoop(whole, { concurrency: cfg.c.donations, duration: cfg.warmup });
      const m = await withCpu(cpuProbes, () => closedLoop(whole, { concurrency: cfg.c.donations, duration: cfg.duration }));
      log(
        `end to end (create + payment_intent.succeeded): ${fmt(m.rps)} donations/s, p50 ${fmt(m.p50)} ms, p99 ${fmt(m.p99)} ms, ${m.errors} errors (load ${load()})`,
      );
      agent.destroy();
      const v = await check([OPS.id]);
      rows.push({
        name: "end to end: POST /api/donations then its signed payment_intent.succeeded",
        group: "write",
        m,
        ceiling: vsFw(m),
        goal: { text: "≥ 200 complete donations/s, 0 errors", met: m.rps >= 200 && m.errors === 0 },
        violations: v.length,
        note: "req/s column = complete donations per second (two requests each); latency = both requests",
      });
    }

    if (cfg.instances > 1) {
      // Scale-out: more server processes on the same database, the load spread over them
      // (autocannon against each, connections divided). Two ratios per row: against ONE
      // instance's framework ceiling (the gain) and against the N-instance ceiling.
      const extra: Server[] = [];
      for (let k = 1; k < cfg.instances; k++) extra.push(await startServer(app.dir, serverEnv));
      others = extra;
      const urls = [url, ...extra.map((x) => x.url)];
      log(`${cfg.instances} instances: ${urls.join(", ")}`);
      const spread = async (o: Omit<HttpLoad, "url">, path = "") => {
        const parts = await Promise.all(
          urls.map((u) => httpLoad({ ...o, url: `${u}${path}`, connections: Math.max(1, Math.round(o.connections / urls.length)) })),
        );
        const seconds = Math.max(...parts.map((p) => p.seconds));
        const requests = parts.reduce((a, p) => a + p.requests, 0);
        const statusCodes: Record<string, number> = {};
        for (const p of parts) for (const [k, v] of Object.entries(p.statusCodes)) statusCodes[k] = (statusCodes[k] ?? 0) + v;
        return {
          requests,
          seconds,
          rps: parts.reduce((a, p) => a + p.rps, 0),
          p50: Math.max(...parts.map((p) => p.p50)),
          p99: Math.max(...parts.map((p) => p.p99)),
          max: Math.max(...parts.map((p) => p.max)),
          errors: parts.reduce((a, p) => a + p.errors, 0),
          statusCodes,
          concurrency: o.connections,
          note: "p50/p99: the worst instance's",
        } satisfies Measured;
      };
      const fwN = await spread({ connections: cfg.c.ceiling, ...d }, "/api/bench-ceiling-unknown-path");
      fwN.errors = Object.entries(fwN.statusCodes)
        .filter(([code]) => code !== "404")
        .reduce((a, [, k]) => a + k, 0);
      log(`framework ceiling, ${cfg.instances} instances: ${fmt(fwN.rps)} req/s (one instance: ${fmt(fw.rps)})`);
      rows.push({
        name: `framework ceiling, ${cfg.instances} instances`,
        group: "ceiling",
        m: fwN,
        ceiling: { name: "framework ×1", rps: fw.rps, ratio: fwN.rps / fw.rps },
      });
      if (wants("donations")) {
        let n = 0;
        const tag = randomBytes(3).toString("hex");
        const next = (): Request => ({
          method: "POST",
          path: "/api/donations",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ campaignId: DONATE_CAMPAIGN, amount: 2500, email: `scale-${tag}-${n++}@example.org`, firstName: "Ada" }),
        });
        const m = await spread({ connections: cfg.c.donations, ...d, method: "POST", next });
        const v = await check([OPS.id]);
        log(`POST /api/donations, ${cfg.instances} instances: ${fmt(m.rps)} req/s, ${m.errors} errors`);
        rows.push({
          name: `POST /api/donations, ${cfg.instances} instances`,
          group: "write",
          m,
          ceiling: { name: "framework ×1", rps: fw.rps, ratio: m.rps / fw.rps },
          violations: v.length,
          extra: { vsFrameworkN: m.rps / fwN.rps },
          note: `${pct(m.rps / fw.rps)} of one instance's framework ceiling, ${pct(m.rps / fwN.rps)} of the ${cfg.instances}-instance ceiling (${fmt(fwN.rps, 0)}/s)`,
        });
      }
    }

    const fwEnd = await ceilingRun("framework ceiling again at the end");
    rows.push({ name: "framework ceiling, again at the end (drift check)", group: "ceiling", m: fwEnd });
  } finally {
    await cleanup();
  }

  async function cleanup() {
    if (cleaned) return;
    cleaned = true;
    const t = Date.now();
    if (server) await server.stop();
    for (const o of others) await o.stop();
    await sql?.end({ timeout: 5 }).catch(() => {});
    if (!cfg.keepDb)
      await admin.unsafe(`drop database if exists "${dbName}" with (force)`).catch((e) => log(`could not drop ${dbName}: ${e.message}`));
    else log(`kept database ${dbName}`);
    await admin.end({ timeout: 5 });
    app.cleanup();
    mark("cleanup", t);
  }

  printTable();
  const goals = judgeGoals(rows);
  printGoals(goals);
  // Only a run of every scenario is one of "the last three runs": a partial one (BENCH_ONLY, or no
  // reports data) would push a whole run out of the table for a column of n/a.
  if (!cfg.only && cfg.donations > 0) {
    recordRun(path.join(__dirname, "RESULTS.md"), goals, {
      BENCH_DONATIONS: cfg.donations,
      BENCH_DURATION: cfg.duration,
      BENCH_INSTANCES: cfg.instances,
      DATABASE_POOL_SIZE: cfg.poolSize,
      // The control without the server's fast routes (bench/README.md, "Fast routes").
      ...(process.env.FAST_ROUTES === "0" ? { FAST_ROUTES: "0" } : {}),
    });
  } else log("a partial run (BENCH_ONLY or BENCH_DONATIONS=0): not added to bench/RESULTS.md");
  const result = {
    when: new Date().toISOString(),
    machine: { cores: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    loadAverageAtEnd: os.loadavg(),
    config: cfg,
    seconds: (Date.now() - T0) / 1000,
    timings,
    rows,
  };
  writeFileSync(
    path.join(__dirname, "results.json"),
    JSON.stringify(result, (k, v) => (v instanceof Set ? [...v] : v), 2),
  );
  log(`done in ${result.seconds.toFixed(0)} s; load average ${load()}; results in bench/results.json`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
