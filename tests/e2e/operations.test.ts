import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, type LocalServer } from "../helpers/local-server";
import { ensureBuild, freePort, startServer, type RunningServer } from "../helpers/server";
import { startInsideWindow } from "../helpers/rate-window";

// Operating Goodfund in production: metrics summed over a cluster's server processes, a graceful
// SIGTERM, and the app under `next start` without our server script. Each case runs the
// production build on a PostgreSQL database of this file's own.
const root = path.resolve(__dirname, "../..");
const SECRET = "a-nextauth-secret-of-at-least-32-characters";
const KEY_BASE64 = "Z29vZGZ1bmQtdGVzdC1rZXktMzItYnl0ZXMtbG9uZyE=";
const METRICS_TOKEN = "metrics-token-of-the-e2e-tests-0123456789";
const CRON_SECRET = "cron-secret-of-the-e2e-tests-0123456789";

const adminUrl = (() => {
  const u = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  u.pathname = "/postgres";
  return u.toString();
})();
const dbName = `goodfund_ops_${process.pid}_${Date.now()}`;
const databaseUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const dataDir = mkdtempSync(path.join(os.tmpdir(), "goodfund-ops-"));

type Env = Record<string, string | undefined>;
const base: Env = {
  DATABASE_URL: databaseUrl,
  TEST_DATABASE_URL: undefined,
  PGLITE_DIR: undefined,
  GOODFUND_DATA_DIR: dataDir,
  PAYMENTS_MODE: "sandbox",
  STRIPE_SECRET_KEY: undefined,
  NEXTAUTH_SECRET: SECRET,
  SECRETS_ENCRYPTION_KEY: KEY_BASE64,
  REDIS_URL: undefined,
  WEB_CONCURRENCY: undefined,
  TRUST_PROXY: undefined,
  SEED_DEMO: "0",
  LOG_LEVEL: "warn",
};

let admin: ReturnType<typeof postgres>;
let db: ReturnType<typeof postgres>;
let resend: LocalServer;
/** The emails the Resend stand-in received (their `to`), and a gate that holds its answers while closed. */
const received: string[] = [];
let hold: { promise: Promise<void>; open: () => void } | null = null;

beforeAll(async () => {
  admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  db = postgres(databaseUrl, { max: 2, onnotice: () => {} });
  resend = await startLocalServer(async (req) => {
    if (req.method !== "POST" || req.path !== "/emails") return { status: 404, body: { message: "not found" } };
    received.push(String((JSON.parse(req.body) as { to: string | string[] }).to));
    if (hold) await hold.promise;
    return { status: 200, body: { id: `email_${received.length}` } };
  });
  await ensureBuild();
}, 900_000);

afterAll(async () => {
  await resend?.close();
  await db?.end();
  await admin?.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin?.end();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Queues `n` member-invitation emails straight in the outbox (what a service's transaction does). */
async function queueEmails(n: number, tag: string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const to = `${tag}-${i}@example.org`;
    const payload = {
      template: "member-invitation",
      to,
      props: { orgName: "Ops", role: "MEMBER", memberEmail: to, invitedBy: null, signInUrl: "http://localhost/signin" },
    };
    const [row] = await db<{ id: string }[]>`
      insert into outbox (kind, dedupe_key, payload) values ('email', ${`${tag}:${i}`}, ${db.json(payload)}) returning id`;
    ids.push(Number(row.id));
  }
  return ids;
}

/** A GET on a connection of its own (so a cluster's processes take turns), answering the status. */
function getOnNewConnection(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      })
      .on("error", reject);
  });
}

/** The value of one series in Prometheus text (`name{labels} value`), or undefined. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe("GET /api/metrics with WEB_CONCURRENCY=2", () => {
  let server: RunningServer | undefined;
  afterAll(() => server?.stop());

  it("shows the whole instance's totals whichever server process answers, by route pattern, with a latency histogram", async () => {
    server = await startServer({ ...base, WEB_CONCURRENCY: "2", METRICS_TOKEN, WORKER_DISABLED: "1" });
    const scrape = async () => {
      const res = await fetch(`${server!.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}`, connection: "close" } });
      expect(res.status).toBe(200);
      return res.text();
    };
    // Both processes are up (each answers the primary's collection) before counting starts: until
    // then the scrape fails (500) after the primary waited for the one still starting.
    for (;;) {
      const res = await fetch(`${server.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      await res.arrayBuffer();
      if (res.status === 200) break;
    }
    const HEALTH = 40;
    for (let i = 0; i < HEALTH; i++) expect(await getOnNewConnection(`${server.url}/api/health`)).toBe(200);
    for (const org of ["first-org", "second-org"]) await getOnNewConnection(`${server.url}/api/orgs/${org}/campaigns`);
    expect(await getOnNewConnection(`${server.url}/api/metrics`, { authorization: "Bearer wrong" })).toBe(401);

    const health = { route: "/api/health", method: "GET", status: "200" };
    const scrapes = [];
    for (let i = 0; i < 4; i++) scrapes.push(await scrape());
    for (const text of scrapes) {
      // Each process counted about half: only the sum is 40.
      expect(series(text, "goodfund_http_requests_total", health)).toBe(HEALTH);
      expect(series(text, "goodfund_http_request_duration_seconds_count", health)).toBe(HEALTH);
      expect(series(text, "goodfund_http_request_duration_seconds_bucket", { ...health, le: "+Inf" })).toBe(HEALTH);
      expect(series(text, "goodfund_http_request_duration_seconds_bucket", { ...health, le: "0.005" })).toBeLessThanOrEqual(HEALTH);
      expect(series(text, "goodfund_http_requests_total", { route: "/api/orgs/[idOrSlug]/campaigns", method: "GET", status: "401" })).toBe(
        2,
      );
      expect(series(text, "goodfund_http_requests_total", { route: "/api/metrics", status: "401" })).toBe(1);
      // Route patterns only: no raw path becomes a label.
      expect(text).not.toContain("first-org");
      expect(text).toContain("# TYPE goodfund_overload_shed_total counter");
      expect(series(text, "goodfund_outbox_pending")).toBe(0);
      expect(series(text, "goodfund_db_pool_max")).toBe(10);
    }
  }, 300_000);
});

describe("SIGTERM", () => {
  it("lets a slow request finish, gives back the worker's outbox leases and exits 0", async () => {
    let open!: () => void;
    hold = { promise: new Promise<void>((r) => (open = r)), open };
    received.length = 0;
    const server = await startServer({
      ...base,
      WORKER_DISABLED: undefined,
      RESEND_API_KEY: "re_test_operations",
      RESEND_BASE_URL: resend.url,
      SHUTDOWN_GRACE_SECONDS: "60",
    });
    try {
      // The worker claims the batch and sends the first email, which the stand-in holds.
      const ids = await queueEmails(5, "shutdown");
      while (received.length === 0) await new Promise((r) => setTimeout(r, 50));
      const [claimed] = await db<{ n: number }[]>`select count(*)::int as n from outbox where id in ${db(ids)} and lease_until is not null`;
      expect(claimed.n).toBe(5);

      // A client trickling a request body: half of it now, the rest after the SIGTERM.
      const body = JSON.stringify({ campaignId: "cmp_nothing_here", amount: 2500, email: "slow@example.org" });
      const socket = net.connect(server.port, "127.0.0.1");
      await new Promise<void>((r) => socket.once("connect", () => r()));
      let answer = "";
      socket.on("data", (d) => (answer += d));
      const ended = new Promise<void>((r) => socket.once("close", () => r()));
      socket.write(
        `POST /api/donations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
      );
      socket.write(body.slice(0, 20));

      const exited = new Promise<number | null>((r) => server.proc.once("exit", (code) => r(code)));
      server.proc.kill("SIGTERM");
      // New connections are refused once it stops accepting.
      for (;;) {
        const refused = await fetch(`${server.url}/api/health`).then(
          () => false,
          () => true,
        );
        if (refused) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      socket.write(body.slice(20));
      await ended;
      // The request was answered in full (no such campaign: a 4xx in the API's error shape).
      expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(answer).toMatch(/\{"error":"[^"]+","status":4\d\d/);

      // The email being sent finishes; the four claimed but not tried are given back at once.
      open();
      expect(await exited).toBe(0);
      const rows = await db<{ id: string; status: string; lease_until: Date | null; attempts: number }[]>`
        select id, status, lease_until, attempts from outbox where id in ${db(ids)} order by id`;
      expect(rows.map((r) => r.status)).toEqual(["SENT", "PENDING", "PENDING", "PENDING", "PENDING"]);
      expect(rows.slice(1).map((r) => [r.lease_until, r.attempts])).toEqual(Array(4).fill([null, 0]));
      expect(received).toEqual(["shutdown-0@example.org"]);
    } finally {
      hold = null;
      await server.stop();
      await db`update outbox set status = 'SENT' where status = 'PENDING'`;
    }
  }, 300_000);
});

describe("without our server script: next start with TRUST_PROXY=1", () => {
  it("limits two clients apart by X-Forwarded-For, and POST /api/cron/worker sends a queued email", async () => {
    const port = await freePort();
    const env: Env = {
      ...process.env,
      ...base,
      TRUST_PROXY: "1",
      CRON_SECRET,
      WORKER_DISABLED: "1",
      RATE_LIMIT_PUBLIC_PER_MINUTE: "5",
      RESEND_API_KEY: "re_test_operations",
      RESEND_BASE_URL: resend.url,
      NODE_ENV: "production",
    };
    const childEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(env)) if (v !== undefined && k !== "VITEST" && !k.startsWith("VITEST_")) childEnv[k] = v;
    const proc = spawn(
      process.execPath,
      [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
      {
        cwd: root,
        env: childEnv as NodeJS.ProcessEnv,
        stdio: "pipe",
      },
    );
    let output = "";
    proc.stdout.on("data", (d) => (output += d));
    proc.stderr.on("data", (d) => (output += d));
    const url = `http://127.0.0.1:${port}`;
    try {
      for (;;) {
        if (proc.exitCode !== null) throw new Error(`next start exited (${proc.exitCode}):\n${output}`);
        const ok = await fetch(`${url}/api/health`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const statuses = async (ip: string, n: number) => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) {
          const res = await fetch(`${url}/api/public/campaigns/cmp_nothing_here`, { headers: { "x-forwarded-for": ip } });
          out.push(res.status);
        }
        return out;
      };
      // Five a minute each: the sixth of one client is refused, the other still has its five.
      await startInsideWindow(10_000);
      expect(await statuses("198.51.100.1", 6)).toEqual([404, 404, 404, 404, 404, 429]);
      expect(await statuses("198.51.100.2", 5)).toEqual([404, 404, 404, 404, 404]);
      // The health and readiness probes answer here too. A probe is polled, and each of its checks
      // has 2 s: on a loaded machine one may run late once, and the next answers (the server's
      // warnings, in the message, name the check).
      let ready = 0;
      for (let tries = 0; tries < 5 && ready !== 200; tries++) ready = (await fetch(`${url}/api/ready`)).status;
      expect(ready, output).toBe(200);

      received.length = 0;
      const [id] = await queueEmails(1, "cron");
      const wrong = await fetch(`${url}/api/cron/worker`, { method: "POST", headers: { authorization: "Bearer wrong" } });
      expect(wrong.status).toBe(401);
      const run = await fetch(`${url}/api/cron/worker`, { method: "POST", headers: { authorization: `Bearer ${CRON_SECRET}` } });
      expect(run.status, output).toBe(200);
      expect(await run.json()).toMatchObject({ delivered: 1, failed: 0 });
      expect(received).toEqual(["cron-0@example.org"]);
      const [row] = await db<{ status: string }[]>`select status from outbox where id = ${id}`;
      expect(row.status).toBe("SENT");
    } finally {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once("exit", r));
        proc.kill("SIGTERM");
        await exited;
      }
    }
  }, 300_000);
});
