import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { LOAD_HEADER as APP_LOAD_HEADER } from "@/lib/overload";
import {
  LOAD_HEADER,
  SHED_HEADER,
  createLimiter,
  createOverloadGuard,
  overloadLimits,
  requestClass,
  sheddingEnabled,
  type ClassLimit,
} from "../../scripts/overload.mjs";

// Large waits: the ordering tests must never depend on a timer firing.
const LONG = 600_000;

/** A deferred promise: something a test releases when it decides. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("createLimiter", () => {
  it("never runs more than a class's limit at once, and starts the queued in arrival order", async () => {
    const limiter = createLimiter([{ name: "api", limit: 3, queue: 100, maxWaitMs: LONG }]);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const tasks = Array.from({ length: 20 }, async (_, i) => {
      const release = await limiter.acquire("api");
      expect(release).not.toBeNull();
      started.push(i);
      running++;
      most = Math.max(most, running);
      // Real asynchronous work of varying length (event-loop turns, not timers).
      for (let k = 0; k < (i % 4) + 1; k++) await tick();
      running--;
      release!();
    });
    await Promise.all(tasks);
    expect(most).toBe(3);
    expect(started).toEqual([...started].sort((a, b) => a - b));
    expect(limiter.snapshot().api).toMatchObject({ active: 0, waiting: 0, admitted: 20, shed: 0 });
  });

  it("sheds at once when the queue is full, and a released slot goes to the first in the queue", async () => {
    const limiter = createLimiter([{ name: "reports", limit: 1, queue: 2, maxWaitMs: LONG }]);
    const first = await limiter.acquire("reports");
    const second = limiter.acquire("reports");
    const third = limiter.acquire("reports");
    expect(await limiter.acquire("reports")).toBeNull();
    expect(limiter.snapshot().reports).toMatchObject({ active: 1, waiting: 2, shed: 1 });
    first!();
    const r2 = await second;
    expect(r2).not.toBeNull();
    expect(limiter.snapshot().reports).toMatchObject({ active: 1, waiting: 1 });
    r2!();
    (await third)!();
    expect(limiter.snapshot().reports).toMatchObject({ active: 0, waiting: 0, admitted: 3, shed: 1 });
  });

  it("a release function frees its slot once, however often it is called", async () => {
    const limiter = createLimiter([{ name: "api", limit: 1, queue: 5, maxWaitMs: LONG }]);
    const a = await limiter.acquire("api");
    const b = limiter.acquire("api");
    const c = limiter.acquire("api");
    a!();
    a!();
    const rb = await b;
    expect(limiter.snapshot().api).toMatchObject({ active: 1, waiting: 1 });
    rb!();
    (await c)!();
  });

  it("drains the higher class's queue first, and holds lower classes back while it waits", async () => {
    const limiter = createLimiter([
      { name: "priority", limit: 1, queue: 10, maxWaitMs: LONG },
      { name: "api", limit: 1, queue: 10, maxWaitMs: LONG },
      { name: "pages", limit: 5, queue: 10, maxWaitMs: LONG },
    ]);
    const order: string[] = [];
    const p0 = await limiter.acquire("priority");
    const a0 = await limiter.acquire("api");
    const a1 = limiter.acquire("api").then((r) => (order.push("api"), r));
    const p1 = limiter.acquire("priority").then((r) => (order.push("priority"), r));
    // Pages have free slots, but a class above is waiting: they queue behind it.
    const g1 = limiter.acquire("pages").then((r) => (order.push("pages"), r));
    await tick();
    expect(limiter.snapshot().pages).toMatchObject({ active: 0, waiting: 1 });
    // The api slot frees first, but priority still has a request waiting: nothing below it starts.
    a0!();
    await tick();
    expect(order).toEqual([]);
    expect(limiter.snapshot()).toMatchObject({ api: { active: 0, waiting: 1 }, pages: { active: 0, waiting: 1 } });
    p0!();
    const [rp1, ra1, rg1] = await Promise.all([p1, a1, g1]);
    expect(order).toEqual(["priority", "api", "pages"]);
    for (const r of [ra1, rp1, rg1]) r!();
    expect(Object.values(limiter.snapshot()).map((s) => s.active)).toEqual([0, 0, 0]);
  });

  it("an overflow lane is not held back by the queue it overflows, only by the classes above", async () => {
    const limiter = createLimiter([
      { name: "api", limit: 1, queue: 10, maxWaitMs: LONG },
      { name: "pages", limit: 1, queue: 1, maxWaitMs: LONG },
      { name: "pages-shed", limit: 1, queue: 0, maxWaitMs: 0, overflowOf: "pages" },
    ]);
    const page = await limiter.acquire("pages");
    const queued = limiter.acquire("pages");
    expect(await limiter.acquire("pages")).toBeNull();
    const lane = limiter.tryAcquire("pages-shed");
    expect(lane).not.toBeNull();
    expect(limiter.tryAcquire("pages-shed")).toBeNull();
    lane!();
    // With the API's queue waiting, the lane yields too.
    const api = await limiter.acquire("api");
    const apiQueued = limiter.acquire("api");
    expect(limiter.tryAcquire("pages-shed")).toBeNull();
    api!();
    (await apiQueued)!();
    page!();
    (await queued)!();
    expect(limiter.snapshot()["pages-shed"]).toMatchObject({ admitted: 1, shed: 2 });
  });

  it("sheds a request that waited its class's bound", async () => {
    const limiter = createLimiter([{ name: "pages", limit: 1, queue: 10, maxWaitMs: 1 }]);
    const held = await limiter.acquire("pages");
    expect(await limiter.acquire("pages")).toBeNull();
    expect(limiter.snapshot().pages).toMatchObject({ active: 1, waiting: 0, shed: 1 });
    held!();
    expect(await limiter.acquire("pages")).not.toBeNull();
  });

  it("a queued request whose client left gives up its place without counting as shed", async () => {
    const limiter = createLimiter([{ name: "api", limit: 1, queue: 10, maxWaitMs: LONG }]);
    const held = await limiter.acquire("api");
    const gone = new AbortController();
    const waiting = limiter.acquire("api", gone.signal);
    const next = limiter.acquire("api");
    gone.abort();
    expect(await waiting).toBeNull();
    held!();
    (await next)!();
    expect(limiter.snapshot().api).toMatchObject({ admitted: 2, shed: 0, abandoned: 1, waiting: 0, active: 0 });
  });
});

describe("the load header", () => {
  it("is the one the donate page reads", () => {
    expect(LOAD_HEADER).toBe(APP_LOAD_HEADER);
  });
});

describe("requestClass", () => {
  it.each([
    ["POST", "/api/donations", "priority"],
    ["POST", "/api/processor/webhooks", "priority"],
    ["POST", "/api/sandbox/payments/confirm", "priority"],
    ["GET", "/o/demo/donate/spring/thank-you", "priority"],
    ["GET", "/donate/spring/thank-you", "priority"],
    ["GET", "/api/donations/don_1", "api"],
    ["GET", "/api/orgs/demo/campaigns", "api"],
    ["GET", "/api/public/orgs/demo/campaigns/spring", "api"],
    ["GET", "/dashboard/demo/donations", "api"],
    ["GET", "/api/orgs/demo/reports/summary", "reports"],
    ["GET", "/api/orgs/demo/reports/timeseries", "reports"],
    ["GET", "/api/orgs/demo/donations/export", "reports"],
    ["GET", "/api/orgs/demo/donors/export", "reports"],
    ["GET", "/o/demo/donate/spring", "pages"],
    ["GET", "/donate/spring", "pages"],
    ["GET", "/", "pages"],
    ["GET", "/docs", "pages"],
    ["GET", "/api/openapi.json", "api"],
    ["GET", "/_next/static/chunks/main.js", null],
    ["GET", "/covers/spring.jpg", null],
    ["GET", "/favicon.ico", null],
  ])("%s %s is %s", (method, path, expected) => {
    expect(requestClass(method, path)).toBe(expected);
  });
});

describe("overloadLimits", () => {
  const byName = (limits: ClassLimit[]) => Object.fromEntries(limits.map((l) => [l.name, l]));

  it("derives the defaults from the cores, payments far above the rest", () => {
    const l = byName(overloadLimits({}, 8));
    expect(l.api.limit).toBe(32);
    expect(l.pages.limit).toBe(32);
    expect(l.priority.limit).toBe(256);
    expect(l.reports.limit).toBe(8);
    expect(l.priority.maxWaitMs).toBeGreaterThan(l.api.maxWaitMs);
    expect(l.priority.queue).toBeGreaterThan(l.api.queue);
    const small = byName(overloadLimits({}, 1));
    expect([small.api.limit, small.priority.limit, small.reports.limit]).toEqual([8, 128, 1]);
  });

  it("takes the OVERLOAD_* variables", () => {
    const l = byName(
      overloadLimits(
        { OVERLOAD_CONCURRENCY: "5", OVERLOAD_PRIORITY_CONCURRENCY: "50", OVERLOAD_REPORTS_CONCURRENCY: "2", OVERLOAD_QUEUE_MS: "300" },
        8,
      ),
    );
    expect([l.api.limit, l.pages.limit, l.priority.limit, l.reports.limit]).toEqual([5, 5, 50, 2]);
    expect([l.api.maxWaitMs, l.reports.maxWaitMs, l.priority.maxWaitMs]).toEqual([300, 300, 1500]);
  });

  it("OVERLOAD_SHEDDING=0 turns shedding off", () => {
    expect(sheddingEnabled({})).toBe(true);
    expect(sheddingEnabled({ OVERLOAD_SHEDDING: "0" })).toBe(false);
    expect(sheddingEnabled({ OVERLOAD_SHEDDING: "false" })).toBe(false);
    expect(sheddingEnabled({ OVERLOAD_SHEDDING: "1" })).toBe(true);
  });
});

describe("createOverloadGuard behind a real HTTP server", () => {
  let server: http.Server | null = null;
  afterEach(async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = null;
  });

  /** A server whose requests hang until the test opens the gate; answers echo the load header. */
  async function start(env: Record<string, string>) {
    const logs: string[] = [];
    const { guard, limiter } = createOverloadGuard({ env: { ...env, LOG_LEVEL: "warn" }, cores: 1, warn: (l) => logs.push(l) });
    const g = gate();
    let entered = 0;
    server = http.createServer((req, res) => {
      void guard(req, res, () => {
        entered++;
        void g.opened.then(() => res.end(JSON.stringify({ load: req.headers[LOAD_HEADER] ?? null })));
      });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
    const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    return { base, gate: g, limiter, logs, entered: () => entered };
  }

  const env = {
    OVERLOAD_CONCURRENCY: "1",
    OVERLOAD_PRIORITY_CONCURRENCY: "2",
    OVERLOAD_REPORTS_CONCURRENCY: "1",
    OVERLOAD_QUEUE_MS: "600000",
  };

  it("answers shed API calls and reports 503 with Retry-After in the error shape; a spoofed load header is dropped", async () => {
    const s = await start(env);
    // Fill the reports class (1 running, 2 queued), then the API class (1 running, 2 queued).
    const held = Array.from({ length: 3 }, () => fetch(`${s.base}/api/orgs/x/reports/summary`));
    while (s.limiter.snapshot().reports.waiting < 2) await tick();
    held.push(...Array.from({ length: 3 }, () => fetch(`${s.base}/api/orgs/x/campaigns`, { headers: { [LOAD_HEADER]: "shed" } })));
    while (s.limiter.snapshot().api.waiting < 2) await tick();
    for (const path of ["/api/orgs/x/campaigns", "/api/orgs/x/donations/export"]) {
      const res = await fetch(`${s.base}${path}`);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(res.headers.get("x-request-id")).toBeTruthy();
      expect(res.headers.get(SHED_HEADER)).toBe(path.endsWith("export") ? "reports" : "api");
      expect(await res.json()).toEqual({ error: "Service unavailable", status: 503 });
    }
    // Donations still get in.
    const donation = fetch(`${s.base}/api/donations`, { method: "POST", body: "{}" });
    while (s.entered() < 3) await tick();
    s.gate.open();
    const answers = await Promise.all([...held, donation]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    // The API call that claimed the load header itself did not keep it.
    expect(await answers[3].json()).toEqual({ load: null });
  });

  it("renders page views past the queue in the shed lane (load header set), then refuses with a page", async () => {
    const s = await start(env);
    // pages: 1 running + 1 queued; then the lane (2 at least) takes two; the next is refused.
    const held = Array.from({ length: 2 }, () => fetch(`${s.base}/o/demo/donate/spring`));
    while (s.limiter.snapshot().pages.waiting < 1) await tick();
    const light = Array.from({ length: 2 }, () => fetch(`${s.base}/o/demo/donate/spring`));
    while (s.entered() < 3) await tick();
    const refused = await fetch(`${s.base}/o/demo/donate/spring`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("content-type")).toContain("text/html");
    expect(await refused.text()).toContain("Please try again");
    // Static files are never limited.
    const asset = fetch(`${s.base}/_next/static/x.js`);
    s.gate.open();
    const lightAnswers = await Promise.all(light);
    for (const a of lightAnswers) {
      expect(a.headers.get(SHED_HEADER)).toBe("pages");
      expect(await a.json()).toEqual({ load: "shed" });
    }
    for (const a of await Promise.all(held)) expect(await a.json()).toEqual({ load: null });
    expect((await asset).status).toBe(200);
    // The counts are logged once shedding happened (a trailing line, within a second).
    while (s.logs.length === 0) await new Promise((r) => setTimeout(r, 50));
    expect(JSON.parse(s.logs[0])).toMatchObject({ msg: "overload.shed", shed: { pages: 3 }, pagesLight: 2, pagesRefused: 1 });
  });

  it("OVERLOAD_SHEDDING=0 admits everything", async () => {
    const s = await start({ ...env, OVERLOAD_SHEDDING: "0" });
    const all = Array.from({ length: 6 }, () => fetch(`${s.base}/api/orgs/x/reports/summary`));
    while (s.entered() < 6) await tick();
    s.gate.open();
    expect((await Promise.all(all)).map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });
});
