import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer, type RunningServer } from "../helpers/server";

/**
 * Tracing with OTEL_EXPORTER_OTLP_ENDPOINT set: the server (`npm run dev`'s, which is the
 * production server around Next.js's development mode, so no build is needed) exports its spans
 * over OTLP/HTTP (JSON) to a receiver this test runs, and its log lines carry the trace ID.
 */
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
let dev: RunningServer;
let url: string;

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

  dev = await startDevServer({
    TEST_DATABASE_URL: undefined,
    PGLITE_DIR: undefined,
    APP_URL: undefined,
    NEXTAUTH_URL: undefined,
    REDIS_URL: undefined,
    STRIPE_SECRET_KEY: undefined,
    DATABASE_URL: databaseUrl,
    PAYMENTS_MODE: "sandbox",
    NEXTAUTH_SECRET: "a-nextauth-secret-of-at-least-32-characters",
    SECRETS_ENCRYPTION_KEY: "Z29vZGZ1bmQtdGVzdC1rZXktMzItYnl0ZXMtbG9uZyE=",
    GOODFUND_DATA_DIR: dataDir,
    SEED_DEMO: "0",
    WORKER_DISABLED: "1",
    LOG_LEVEL: "info",
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_SERVICE_NAME: "goodfund-tracing-test",
    // Export every 100 ms instead of every 5 s.
    OTEL_BSP_SCHEDULE_DELAY: "100",
  });
  url = dev.url;
}, 600_000);

afterAll(async () => {
  await dev?.stop();
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
    while (!dev.output().includes(`"traceId":"${request.traceId}"`)) await new Promise((r) => setTimeout(r, 100));
    const line = dev
      .output()
      .split("\n")
      .find((l) => l.includes(`"traceId":"${request!.traceId}"`))!;
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
