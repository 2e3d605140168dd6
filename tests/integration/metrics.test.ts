import { afterEach, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { deliver, givingSetup, paymentSucceededEvent, pendingDonation } from "../fixtures/processor";
import { get } from "../helpers/api";

const TOKEN = "metrics-token-for-the-tests-0123456789";
const setToken = (token: string | undefined) => {
  if (token === undefined) delete process.env.METRICS_TOKEN;
  else process.env.METRICS_TOKEN = token;
  resetEnv();
};

/** The value of one series in Prometheus text (`name{labels} value`), or undefined. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe("GET /api/metrics", () => {
  afterEach(() => setToken(undefined));

  it("answers 404 while METRICS_TOKEN is unset, even with a token", async () => {
    setToken(undefined);
    const res = await get("/api/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Not found", status: 404 });
  });

  it("answers 401 without a token, with a wrong one, or with the right one not as a bearer token", async () => {
    setToken(TOKEN);
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, "Bearer "]) {
      const res = await get("/api/metrics", { headers: authorization ? { authorization } : {} });
      expect(res.status, authorization).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    }
  });

  it("answers the Prometheus text: donations by status, processor events by type and result, the outbox", async () => {
    setToken(TOKEN);
    const setup = await givingSetup();
    const donation = await pendingDonation(setup.campaign.id);
    const scrape = async () => {
      const res = await get("/api/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.text;
    };
    const before = await scrape();
    const applied = { type: "payment_intent.succeeded", result: "applied" };
    const eventsBefore = series(before, "goodfund_processor_events_total", applied) ?? 0;
    const succeededBefore = series(before, "goodfund_donations", { status: "SUCCEEDED" }) ?? 0;
    expect(series(before, "goodfund_donations", { status: "PENDING" })).toBeGreaterThanOrEqual(1);

    const event = paymentSucceededEvent(donation);
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).body).toMatchObject({ duplicate: true });

    const after = await scrape();
    expect(series(after, "goodfund_processor_events_total", applied)).toBe(eventsBefore + 1);
    expect(
      series(after, "goodfund_processor_events_total", { type: "payment_intent.succeeded", result: "duplicate" }),
    ).toBeGreaterThanOrEqual(1);
    expect(series(after, "goodfund_donations", { status: "SUCCEEDED" })).toBe(succeededBefore + 1);
    // The receipt email waits in the outbox (no worker runs in these tests).
    expect(series(after, "goodfund_outbox_pending")).toBeGreaterThanOrEqual(1);
    expect(series(after, "goodfund_outbox_due")).toBeGreaterThanOrEqual(1);
    expect(series(after, "goodfund_outbox_oldest_due_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(after).toContain("# TYPE goodfund_webhook_deliveries_total counter");
    expect(series(after, "goodfund_db_pool_max")).toBeGreaterThan(0);
  });
});
