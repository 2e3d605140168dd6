import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/server";

/**
 * Tracing with OTEL_EXPORTER_OTLP_ENDPOINT set: the server (`npm run dev`'s, which is the
 * production server around Next.js's development mode, so no build is needed) exports its spans
 * over OTLP/HTTP (JSON) to a receiver this test runs, and its log lines carry the trace ID.
 */
const root = path.resolve(__dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "goodfund-tracing-"));
const adminUrl = (() => {
  const u = new URL(process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  u.pathname = "/postgres";
  return u.toString();
})();
const dbName = `goodfund_tracing_${process.pid}_${Date.now()}`;
const databaseUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
};
const spans: OtlpSpan[] = [];
const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v ? Object.values(v)[0] : undefined;
};

let receiver: http.Server;
let admin: ReturnType<typeof postgres>;
let proc: ChildProcess;
let url: string;
let output = "";

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/v1/traces" && String(req.headers["content-type"]).startsWith("application/json")) {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", () => r()));
  admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);

  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && k !== "VITEST" && !k.startsWith("VITEST_") && k !== "NODE_ENV") env[k] = v;
  }
  for (const k of ["TEST_DATABASE_URL", "PGLITE_DIR", "APP_URL", "NEXTAUTH_URL", "REDIS_URL", "STRIPE_SECRET_KEY"]) delete env[k];
  Object.assign(env, {
    DATABASE_URL: databaseUrl,
    PAYMENTS_MODE: "sandbox",
    NEXTAUTH_SECRET: "a-nextauth-secret-of-at-least-32-characters",
    SECRETS_ENCRYPTION_KEY: "Z29vZGZ1bmQtdGVzdC1rZXktMzItYnl0ZXMtbG9uZyE=",
    GOODFUND_DATA_DIR: dataDir,
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    SEED_DEMO: "0",
    WORKER_DISABLED: "1",
    LOG_LEVEL: "info",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_SERVICE_NAME: "goodfund-tracing-test",
    // Export every 100 ms instead of every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: "100",
  });
  proc = spawn(process.execPath, ["--import", "tsx", path.join(root, "server/main.ts"), "--dev"], {
    cwd: root,
    env: env as NodeJS.ProcessEnv,
    stdio: "pipe",
  });
  proc.stdout!.on("data", (d) => (output += d));
  proc.stderr!.on("data", (d) => (output += d));
  const deadline = Date.now() + 240_000;
  while (!/Goodfund is ready on/.test(output)) {
    if (proc.exitCode !== null) throw new Error(`dev server exited (${proc.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`dev server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}, 300_000);

afterAll(async () => {
  if (proc && proc.exitCode === null) {
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGTERM");
    await exited;
  }
  await admin?.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin?.end();
  await new Promise((r) => receiver?.close(r));
  rmSync(dataDir, { recursive: true, force: true });
});

describe("OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  it("exports a request's span with its route and the database statements under it, and logs its trace ID", async () => {
    // The readiness probe: served by the server's fast path, with database statements.
    const res = await fetch(`${url}/api/ready`);
    expect(res.status).toBe(200);
    let request: OtlpSpan | undefined;
    let statements: OtlpSpan[] = [];
    while (!request || statements.length === 0) {
      await new Promise((r) => setTimeout(r, 100));
      request = spans.find((s) => attr(s, "http.route") === "/api/ready");
      statements = spans.filter((s) => request && s.traceId === request.traceId && attr(s, "db.system") === "postgresql");
    }
    expect(request.name).toBe("GET /api/ready");
    expect(statements.some((s) => String(attr(s, "db.statement")).includes("outbox"))).toBe(true);
    // The request's log line names the same trace.
    while (!output.includes(`"traceId":"${request.traceId}"`)) await new Promise((r) => setTimeout(r, 100));
    const line = output.split("\n").find((l) => l.includes(`"traceId":"${request!.traceId}"`))!;
    expect(JSON.parse(line)).toMatchObject({ msg: "request", path: "/api/ready", status: 200 });
  }, 120_000);

  it("a request through Next.js's router gets a span naming its route pattern", async () => {
    const res = await fetch(`${url}/api/public/campaigns/cmp_nothing_here`);
    expect(res.status).toBe(404);
    const named = () =>
      spans.find((s) => s.name.includes("/api/public/campaigns/[id]") || attr(s, "http.route") === "/api/public/campaigns/[id]");
    while (!named()) await new Promise((r) => setTimeout(r, 100));
    const span = named()!;
    // The campaign lookup ran in the same trace.
    while (!spans.some((s) => s.traceId === span.traceId && attr(s, "db.system") === "postgresql"))
      await new Promise((r) => setTimeout(r, 100));
  }, 240_000);
});
