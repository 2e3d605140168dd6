import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { outbox } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { get, post } from "../helpers/api";
import { testDb } from "../helpers/db";

const setLag = (seconds: string | undefined) => {
  if (seconds === undefined) delete process.env.READY_OUTBOX_MAX_LAG_SECONDS;
  else process.env.READY_OUTBOX_MAX_LAG_SECONDS = seconds;
  resetEnv();
};

describe("GET /api/health and GET /api/ready", () => {
  // The test database may hold other files' undelivered rows: a lag no real row reaches.
  const HUGE_LAG = "1000000000";
  afterEach(() => setLag(undefined));

  it("GET /api/health answers 200 { status: ok }, with no rate-limit headers", async () => {
    const res = await get("/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("GET /api/ready answers 200 with its three checks", async () => {
    setLag(HUGE_LAG);
    const res = await get("/api/ready");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ready", checks: { database: "ok", rateLimitStore: "ok", outbox: "ok" } });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("200 probes from one address are never rate-limited", async () => {
    setLag(HUGE_LAG);
    const ip = "203.0.113.77";
    for (let i = 0; i < 100; i++) {
      const [health, ready] = await Promise.all([get("/api/health", { ip }), get("/api/ready", { ip })]);
      expect([health.status, ready.status]).toEqual([200, 200]);
      expect(ready.headers.get("x-ratelimit-remaining")).toBeNull();
    }
    // The public limit of that address is untouched by the probes.
    const counted = await get("/api/public/campaigns/cmp_nobody", { ip });
    expect(counted.headers.get("x-ratelimit-remaining")).toBe(String(Number(counted.headers.get("x-ratelimit-limit")) - 1));
  });

  it("GET /api/ready answers 503 naming the outbox while its oldest due item waits too long, and recovers", async () => {
    setLag(HUGE_LAG);
    const db = await testDb();
    // Due since 1970: older than any lag this test allows (and than any other row).
    const [row] = await db
      .insert(outbox)
      .values({ kind: "email", dedupeKey: `ready-test:${Date.now()}:${Math.random()}`, payload: {}, nextAttemptAt: new Date(0) })
      .returning({ id: outbox.id });
    try {
      const res = await get("/api/ready");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: "Not ready: outbox",
        status: 503,
        checks: { database: "ok", rateLimitStore: "ok", outbox: "failing" },
      });
      expect(res.headers.get("retry-after")).toBe("5");
    } finally {
      await db
        .update(outbox)
        .set({ status: "SENT", sentAt: sql`now()` })
        .where(sql`${outbox.id} = ${row.id}`);
    }
    expect((await get("/api/ready")).status).toBe(200);
  });

  it("GET /api/ready answers 503 naming the rate-limit store when Redis cannot be reached", async () => {
    setLag(HUGE_LAG);
    const { resetRateLimiter } = await import("@/lib/ratelimit");
    process.env.RATE_LIMIT_BACKEND = "redis";
    // A port nothing listens on.
    process.env.REDIS_URL = "redis://127.0.0.1:1";
    resetEnv();
    resetRateLimiter();
    try {
      const res = await get("/api/ready");
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: "Not ready: rateLimitStore", checks: { database: "ok", rateLimitStore: "failing" } });
    } finally {
      delete process.env.RATE_LIMIT_BACKEND;
      delete process.env.REDIS_URL;
      resetEnv();
      resetRateLimiter();
    }
    expect((await get("/api/ready")).status).toBe(200);
  });

  it("POST /api/health answers 405", async () => {
    expect((await post("/api/health", {})).status).toBe(405);
  });
});
