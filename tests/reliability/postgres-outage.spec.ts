import { describe, expect, it } from "vitest";
import { deliverAll, giftsAndEvents, isErrorShape, knob, redeliveries, request, rng, sleep, instancesForFile, runOutcome } from "./helpers";

/**
 * "Postgres stopped for ten seconds under load", without touching the shared Postgres server: the
 * app instance reaches Postgres through a TCP proxy (DATABASE_URL points at it); the outage cuts
 * every proxied connection and refuses new ones (nothing listens) for RELIABILITY_OUTAGE_SECONDS,
 * then listens again on the same port. Meanwhile donors, dashboard users and the processor keep
 * calling. Expected: during the outage every request answers (no hang past a bound) with 503
 * `Service unavailable` + Retry-After (or 500), always in the JSON error shape; afterwards the app
 * serves again by itself, the processor's redeliveries apply, and the money adds up (nothing
 * half-applied).
 */
const OUTAGE_MS = knob("RELIABILITY_OUTAGE_SECONDS", 10) * 1000;
const EVENTS = knob("RELIABILITY_OUTAGE_EVENTS", 300);
// No request may take longer than this while the database is away (the 503's Retry-After is 5 s).
const BOUND_MS = knob("RELIABILITY_REQUEST_BOUND_MS", 10_000);
// Serving again this soon after the database is back (measured up to a minute either way).
const RECOVERY_BOUND_MS = knob("RELIABILITY_RECOVERY_BOUND_MS", 10_000);
const SEED = knob("RELIABILITY_SEED", Date.now() % 1_000_000);
// The driver's connect_timeout (db/index.ts): traffic keeps running at least this long after recovery.
const CONNECT_TIMEOUT_MS = 5_000;

const file = instancesForFile("outage", { count: 1, throughProxy: true });

type Call = {
  kind: string;
  at: number;
  ms: number;
  status: number | "network" | "timeout";
  shaped: boolean;
  retryAfter: string | null;
  error?: string;
};

describe("Postgres unreachable for ten seconds under load", () => {
  it(`answers 503 meanwhile, recovers by itself, and applies the redelivered events exactly once (seed ${SEED})`, async () => {
    const r = rng(SEED);
    const url = file.instances.url(0)!;
    const { events } = await giftsAndEvents(url, file.fx, EVENTS, r);
    const deliveries = redeliveries(events, 2, r);
    const auth = { authorization: `Bearer ${file.fx.token}` };
    const calls: Call[] = [];
    let outageStart = 0;
    let outageEnd = 0;
    let stop = false;

    const timed = async (kind: string, run: () => ReturnType<typeof request>) => {
      const at = Date.now();
      try {
        const a = await run();
        calls.push({
          kind,
          at,
          ms: a.ms,
          status: a.status,
          shaped: a.status < 400 || isErrorShape(a),
          retryAfter: a.headers.get("retry-after"),
          error: a.status >= 400 ? a.text.slice(0, 200) : undefined,
        });
      } catch (err) {
        const e = err as Error;
        calls.push({
          kind,
          at,
          ms: Date.now() - at,
          status: e.name === "TimeoutError" ? "timeout" : "network",
          shaped: false,
          retryAfter: null,
          error: String(e.cause ?? e.message),
        });
      }
    };
    const probes: { path: "/api/health" | "/api/ready"; at: number; status: number | "network"; body: string }[] = [];
    let n = 0;
    const traffic = [
      // A donor's browser on the public page, and giving.
      ...Array.from({ length: 2 }, () => async () => {
        while (!stop) {
          await timed("public view", () =>
            request(`${url}/api/public/orgs/${file.fx.org.slug}/campaigns/${file.fx.campaigns[4].slug}`, { timeoutMs: BOUND_MS }),
          );
          await sleep(50);
        }
      }),
      ...Array.from({ length: 2 }, () => async () => {
        while (!stop) {
          await timed("POST donation", () =>
            request(`${url}/api/donations`, {
              method: "POST",
              json: { campaignId: file.fx.campaigns[4].id, amount: 2_500, email: `outage-${n++}@example.org` },
              timeoutMs: BOUND_MS,
            }),
          );
          await sleep(50);
        }
      }),
      // The dashboard.
      async () => {
        while (!stop) {
          await timed("campaign list", () =>
            request(`${url}/api/orgs/${file.fx.org.id}/campaigns`, { headers: auth, timeoutMs: BOUND_MS }),
          );
          await sleep(100);
        }
      },
      // A load balancer's probes (GET /api/health, GET /api/ready), kept apart from the traffic above.
      async () => {
        while (!stop) {
          for (const path of ["/api/health", "/api/ready"] as const) {
            const at = Date.now();
            const a = await request(`${url}${path}`, { timeoutMs: BOUND_MS }).catch(() => null);
            probes.push({ path, at, status: a?.status ?? "network", body: a?.text ?? "" });
          }
          await sleep(250);
        }
      },
    ].map((f) => f());

    let acknowledged = 0;
    const outage = (async () => {
      while (acknowledged < deliveries.length * 0.25) await sleep(20);
      outageStart = Date.now();
      await file.proxy.stop();
      await sleep(OUTAGE_MS);
      await file.proxy.resume();
      outageEnd = Date.now();
    })();
    const stats = await deliverAll(deliveries, {
      concurrency: 8,
      target: () => url,
      maxAttempts: 400,
      backoffMs: 100,
      timeoutMs: BOUND_MS,
      onAttempt: (a) => {
        if (a.status === 200) acknowledged++;
        const shaped = typeof a.status !== "number" || a.status < 400 || /"error":".*","status":\d+/.test(a.text ?? "");
        calls.push({
          kind: "webhook",
          at: a.at - a.ms,
          ms: a.ms,
          status: a.status,
          shaped,
          retryAfter: null,
          error: a.status === 200 ? undefined : a.text,
        });
      },
    });
    await outage;

    // Recovery: the first time a request started after the database is back succeeds: from the
    // traffic above, or from probes when none did yet (the traffic keeps running until then).
    let recoveredAfter = -1;
    while (Date.now() - outageEnd < Math.max(60_000, RECOVERY_BOUND_MS)) {
      const a = await request(`${url}/api/public/orgs/${file.fx.org.slug}/campaigns/${file.fx.campaigns[4].slug}`, {
        timeoutMs: BOUND_MS,
      }).catch(() => null);
      if (a?.status === 200) {
        recoveredAfter = Date.now() - outageEnd;
        break;
      }
      await sleep(250);
    }
    // Keep the traffic going long enough to see the app serving normally again (`after` below).
    await sleep(Math.max(2_000, outageEnd + Math.max(0, recoveredAfter) + CONNECT_TIMEOUT_MS + 4_000 - Date.now()));
    stop = true;
    await Promise.all(traffic);
    const firstSuccess = calls
      .filter((c) => c.at >= outageEnd && typeof c.status === "number" && c.status < 300)
      .reduce((min, c) => Math.min(min, c.at + c.ms - outageEnd), Infinity);
    if (firstSuccess !== Infinity && (recoveredAfter < 0 || firstSuccess < recoveredAfter)) recoveredAfter = Math.round(firstSuccess);

    const during = calls.filter((c) => c.at >= outageStart && c.at < outageEnd);
    // Every request started a second after that must succeed. (Without the driver's teardown fix,
    // patches/postgres+3.4.9.patch, a reconnect could hang until connect_timeout, 5 s, and fail the
    // requests queued on it with 503 well after the database was back.)
    const after = calls.filter((c) => c.at >= outageEnd + Math.max(0, recoveredAfter) + 1000);
    const byStatus = (cs: Call[]) =>
      cs.reduce<Record<string, number>>((m, c) => ((m[`${c.kind} ${c.status}`] = (m[`${c.kind} ${c.status}`] ?? 0) + 1), m), {});
    const slowest = Math.max(...calls.map((c) => c.ms));
    const slowDuring = during.filter((c) => c.ms >= BOUND_MS - 50).length;
    const { violations, recorded, emails } = await runOutcome(file, events);
    console.info(
      `reliability/outage: ${OUTAGE_MS / 1000} s outage; during it ${JSON.stringify(byStatus(during))}; ` +
        `slowest answer ${slowest.toFixed(0)} ms (${slowDuring} requests started during it hit the ${BOUND_MS} ms bound); recovered ${recoveredAfter} ms after the database came back; ` +
        `after that ${JSON.stringify(byStatus(after))}; ${stats.attempts} delivery attempts ${JSON.stringify(stats.statuses)}; ` +
        `proxy saw ${file.proxy.connections} connections; violations ${violations.length}`,
    );
    // The money first: nothing half-applied, every event applied once after redelivery.
    expect.soft(stats.unacknowledged, "every event acknowledged eventually").toEqual([]);
    expect.soft(violations).toEqual([]);
    expect.soft(recorded).toEqual({ missing: [], unexpected: [] });
    expect.soft(emails.duplicates).toBe(0);
    // Then the behaviour while the database is away, and after.
    expect.soft(during.length).toBeGreaterThan(0);
    const odd = calls.filter((c) => c.status === "timeout" || c.status === "network" || !c.shaped);
    expect.soft(odd.slice(0, 5), `every request answers, in the JSON error shape, within ${BOUND_MS} ms`).toEqual([]);
    expect.soft(slowest, "slowest answer (ms)").toBeLessThan(BOUND_MS);
    const unexpected = during.filter((c) => typeof c.status === "number" && c.status >= 400 && c.status !== 503 && c.status !== 500);
    expect.soft(unexpected.slice(0, 5), "during the outage: 503 (or 500), nothing else").toEqual([]);
    const no503RetryAfter = calls.filter((c) => c.kind !== "webhook" && c.status === 503 && !c.retryAfter);
    expect.soft(no503RetryAfter.slice(0, 3), "503 carries Retry-After").toEqual([]);
    expect.soft(recoveredAfter, "serving again after the database is back (ms; -1: not within a minute)").toBeGreaterThanOrEqual(0);
    expect.soft(recoveredAfter, "serving again after the database is back (ms)").toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    expect.soft(after.length, "requests once the app serves normally again").toBeGreaterThan(0);
    const failingAfter = after.filter((c) => c.status !== 200 && c.status !== 201);
    expect.soft(failingAfter.slice(0, 5), "once recovered, requests succeed again").toEqual([]);
    // The probes: the process is alive throughout; not ready while the database is away, ready again after.
    const health = probes.filter((p) => p.path === "/api/health");
    expect.soft(health.length).toBeGreaterThan(0);
    expect.soft(health.filter((p) => p.status !== 200).slice(0, 3), "GET /api/health answers 200 throughout").toEqual([]);
    const ready = probes.filter((p) => p.path === "/api/ready");
    const notReady = ready.filter((p) => p.at >= outageStart && p.at < outageEnd && p.status === 503);
    expect.soft(notReady.length, "GET /api/ready answers 503 during the outage").toBeGreaterThan(0);
    for (const p of notReady) expect.soft(JSON.parse(p.body)).toMatchObject({ status: 503, checks: { database: "failing" } });
    const readyDuring = ready.filter((p) => p.at >= outageStart && p.at < outageEnd && p.status !== 503);
    expect
      .soft(
        readyDuring.every((p) => p.status === 200),
        "during the outage GET /api/ready answers 503 (or 200 before it notices)",
      )
      .toBe(true);
    expect
      .soft(ready.filter((p) => p.at >= outageEnd && p.status === 200).length, "GET /api/ready answers 200 again after the outage")
      .toBeGreaterThan(0);
    expect.soft(ready.at(-1)?.status, "and stays ready").toBe(200);
  }, 900_000);
});
