import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServer, type RunningServer } from "../helpers/server";

/**
 * `npm run dev` is the production server (server/main.ts) around Next.js's development mode:
 * the overload guard sheds a flood, and the fast path answers POST /api/donations with the
 * route's own behaviour, before Next.js has compiled anything for it.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), "goodfund-dev-"));
let dev: RunningServer;
let url: string;

beforeAll(async () => {
  dev = await startDevServer({
    DATABASE_URL: undefined,
    TEST_DATABASE_URL: undefined,
    PGLITE_DIR: undefined,
    NEXTAUTH_SECRET: undefined,
    APP_URL: undefined,
    NEXTAUTH_URL: undefined,
    REDIS_URL: undefined,
    GOODFUND_DATA_DIR: dataDir,
    SEED_DEMO: "0",
    WORKER_DISABLED: "1",
    LOG_LEVEL: "warn",
    // One request of the API at a time and no queue to speak of: a flood is shed at once.
    OVERLOAD_CONCURRENCY: "1",
    OVERLOAD_QUEUE_MS: "1",
  });
  url = dev.url;
}, 600_000);

afterAll(async () => {
  await dev?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run dev", () => {
  it("serves POST /api/donations on the fast path, with the route's own answers", async () => {
    const post = (body: string) => fetch(`${url}/api/donations`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const bad = await post("{nope");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Invalid JSON body", status: 400 });
    // Next.js's development server adds its router's Vary to what it serves; the fast path does not.
    expect(bad.headers.get("vary")).toBeNull();
    expect(bad.headers.get("x-request-id")).toBeTruthy();
    const unknown = await post(JSON.stringify({ campaignId: "cmp_none", amount: 5000, email: "dev@example.org" }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Campaign not found", status: 404 });
  }, 120_000);

  it("sheds a flood of API calls with 503 and Retry-After, by class", async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => fetch(`${url}/api/orgs`)));
    const shed = answers.filter((a) => a.status === 503);
    expect(shed.length).toBeGreaterThan(0);
    for (const a of shed) {
      expect(a.headers.get("x-goodfund-shed")).toBe("api");
      expect(a.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(await a.json()).toEqual({ error: "Service unavailable", status: 503 });
    }
    // The others reached the route: 401 without a token.
    for (const a of answers.filter((a) => a.status !== 503)) expect(a.status).toBe(401);
  }, 300_000);
});
