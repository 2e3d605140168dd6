import http from "node:http";
import net, { type AddressInfo } from "node:net";
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
} from "@/server/overload";
import { SERVER_STREAM_OPTIONS } from "@/server/request-body";
import { API_ROUTE_CLASSES, UPLOAD_ROUTES } from "@/server/routes.generated";

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

  it("while a class above waits, a lower class runs up to its reserve (a quarter of its limit), never none", async () => {
    const limiter = createLimiter([
      { name: "priority", limit: 1, queue: 10, maxWaitMs: LONG },
      { name: "pages", limit: 8, queue: 10, maxWaitMs: LONG },
    ]);
    const order: string[] = [];
    const p0 = await limiter.acquire("priority");
    const p1 = limiter.acquire("priority").then((r) => (order.push("priority"), r));
    // Priority is full and has a request waiting: pages still start two (8 / 4), then queue.
    const pages = Array.from({ length: 4 }, () => limiter.acquire("pages").then((r) => (order.push("pages"), r)));
    await tick();
    expect(limiter.snapshot()).toMatchObject({ priority: { active: 1, waiting: 1 }, pages: { active: 2, waiting: 2 } });
    expect(order).toEqual(["pages", "pages"]);
    // Priority's queue drains first; then pages get their whole limit back.
    p0!();
    const releases = await Promise.all([p1, ...pages]);
    expect(order).toEqual(["pages", "pages", "priority", "pages", "pages"]);
    expect(limiter.snapshot().pages).toMatchObject({ active: 4, waiting: 0 });
    for (const r of releases) r!();
    expect(Object.values(limiter.snapshot()).map((s) => s.active)).toEqual([0, 0]);
  });

  it("an overflow lane is not held back by the queue it overflows, only by the classes above (down to its reserve)", async () => {
    const limiter = createLimiter([
      { name: "api", limit: 1, queue: 10, maxWaitMs: LONG },
      { name: "pages", limit: 1, queue: 1, maxWaitMs: LONG },
      { name: "pages-shed", limit: 4, queue: 0, maxWaitMs: 0, overflowOf: "pages" },
    ]);
    const page = await limiter.acquire("pages");
    const queued = limiter.acquire("pages");
    expect(await limiter.acquire("pages")).toBeNull();
    const lanes = [limiter.tryAcquire("pages-shed"), limiter.tryAcquire("pages-shed")];
    expect(lanes).not.toContain(null);
    // With the API's queue waiting, the lane keeps only its reserve (one): it is already past it.
    const api = await limiter.acquire("api");
    const apiQueued = limiter.acquire("api");
    expect(limiter.tryAcquire("pages-shed")).toBeNull();
    api!();
    (await apiQueued)!();
    expect(limiter.tryAcquire("pages-shed")).not.toBeNull();
    page!();
    (await queued)!();
    expect(limiter.snapshot()["pages-shed"]).toMatchObject({ admitted: 3, shed: 1 });
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
  const files = new Set(["/covers/spring.jpg", "/favicon.ico"]);
  it.each([
    ["POST", "/api/donations", "priority"],
    ["POST", "/api/processor/webhooks", "priority"],
    ["POST", "/api/sandbox/payments/confirm", "priority"],
    ["GET", "/o/demo/donate/spring/thank-you", "priority"],
    ["GET", "/donate/spring/thank-you", "priority"],
    ["GET", "/o/demo/donate/spring/pay", "priority"],
    ["GET", "/donate/spring/pay", "priority"],
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
    ["GET", "/api/orgs/demo/donors/don_1/export", "reports"],
    ["POST", "/api/orgs/demo/reports/summary", "api"],
    ["GET", "/_next/static/chunks/main.js", null],
    ["GET", "/covers/spring.jpg", null],
    ["GET", "/favicon.ico", null],
    // Only what is served as a file skips the guard: a path that merely looks like one runs the app.
    ["GET", "/o/x/donate/y.css", "pages"],
    ["GET", "/covers/unknown.jpg", "pages"],
    ["GET", "/robots.txt", "pages"],
    ["GET", "/_next/image", "pages"],
    // The probes declare `overload: "exempt"`: never queued or shed.
    ["GET", "/api/health", null],
    ["GET", "/api/ready", null],
    ["POST", "/api/health", "api"],
  ])("%s %s is %s", (method, path, expected) => {
    expect(requestClass(method, path, { routeClasses: API_ROUTE_CLASSES, staticFiles: files })).toBe(expected);
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
  async function start(env: Record<string, string>, bodyDeadlineMs = LONG, clientOf?: (req: http.IncomingMessage) => string) {
    const logs: string[] = [];
    const { guard, limiter, bodies } = createOverloadGuard({
      clientOf,
      env: { ...env, LOG_LEVEL: "warn" },
      cores: 1,
      warn: (l) => logs.push(l),
      routeClasses: API_ROUTE_CLASSES,
      uploadRoutes: UPLOAD_ROUTES,
      bodyDeadlineMs,
    });
    const g = gate();
    let entered = 0;
    server = http.createServer(SERVER_STREAM_OPTIONS, (req, res) => {
      void guard(req, res, () => {
        entered++;
        // What Next.js reads: the request's stream, untouched, its body already arrived.
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const streamed = Buffer.concat(chunks).toString();
          void g.opened.then(() => res.end(JSON.stringify({ load: req.headers[LOAD_HEADER] ?? null, streamed })));
        });
      });
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
    const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
    return { base, gate: g, limiter, bodies, logs, entered: () => entered };
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
    expect(await answers[3].json()).toMatchObject({ load: null });
    // The donation's body reached its handler, and is still in the request's stream for Next.js.
    expect(await answers[6].json()).toEqual({ load: null, streamed: "{}" });
  });

  it("lets the health and readiness probes through while it sheds the API", async () => {
    const s = await start(env);
    // Fill the API class: 1 running, 2 queued; the next call is shed.
    const held = Array.from({ length: 3 }, () => fetch(`${s.base}/api/orgs/x/campaigns`));
    while (s.limiter.snapshot().api.waiting < 2) await tick();
    expect((await fetch(`${s.base}/api/orgs/x/campaigns`)).status).toBe(503);
    // The probes reach their handler at once, past the full class.
    const probes = [fetch(`${s.base}/api/health`), fetch(`${s.base}/api/ready`)];
    while (s.entered() < 3) await tick();
    expect(s.limiter.snapshot().api).toMatchObject({ active: 1, waiting: 2 });
    s.gate.open();
    expect((await Promise.all([...held, ...probes])).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it("lets a route that streams its own upload (a CSV import) take a body over 1 MiB, untouched; others still get 413", async () => {
    const s = await start(env);
    s.gate.open();
    const big = "x".repeat(3 * 1024 * 1024);
    const upload = await fetch(`${s.base}/api/orgs/x/imports?preset=goodfund`, {
      method: "POST",
      body: big,
      headers: { "content-type": "text/csv" },
    });
    expect(upload.status).toBe(200);
    expect(((await upload.json()) as { streamed: string }).streamed.length).toBe(big.length);
    const other = await fetch(`${s.base}/api/orgs/x/campaigns`, {
      method: "POST",
      body: big,
      headers: { "content-type": "application/json" },
    });
    expect(other.status).toBe(413);
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
      expect(await a.json()).toMatchObject({ load: "shed" });
    }
    for (const a of await Promise.all(held)) expect(await a.json()).toMatchObject({ load: null });
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

  /** A raw connection that announces a body of `length` bytes and sends `sent` of it. */
  function trickle(base: string, path: string, length: number, sent: string, client = "") {
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    let answer = "";
    socket.on("data", (d) => (answer += d.toString()));
    socket.on("error", () => {});
    const closed = new Promise<void>((r) => socket.on("close", () => r()));
    const who = client ? `X-Test-Client: ${client}\r\n` : "";
    socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\n${who}Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${sent}`);
    return { socket, answer: () => answer, closed };
  }

  it("admits a request only once its body has arrived: a trickling body holds no slot", async () => {
    const s = await start(env);
    // Priority has two slots: three slow bodies take none of them.
    const slow = Array.from({ length: 3 }, () => trickle(s.base, "/api/processor/webhooks", 10, "{"));
    const slowApi = trickle(s.base, "/api/orgs/x/campaigns", 10, "{");
    while (s.limiter.snapshot().priority.active > 0) await tick();
    const donation = fetch(`${s.base}/api/donations`, { method: "POST", body: '{"a":1}' });
    const call = fetch(`${s.base}/api/orgs/x/campaigns`);
    while (s.entered() < 2) await tick();
    expect(s.limiter.snapshot()).toMatchObject({ priority: { active: 1, waiting: 0 }, api: { active: 1, waiting: 0 } });
    // Once a slow body is complete, its request is admitted and its handler reads the whole body.
    slow[0].socket.write('"a":1}   ');
    while (s.entered() < 3) await tick();
    s.gate.open();
    expect((await (await donation).json()).streamed).toBe('{"a":1}');
    expect((await call).status).toBe(200);
    while (!slow[0].answer().includes("\r\n\r\n{")) await tick();
    expect(slow[0].answer()).toContain('"streamed":"{\\"a\\":1}   "');
    for (const c of [...slow, slowApi]) c.socket.destroy();
  });

  it("answers a body that does not arrive in time 408, and one declared over 1 MiB 413, in the API's shape, and closes", async () => {
    const s = await start(env, 200);
    const slow = trickle(s.base, "/api/processor/webhooks", 1000, "{");
    await slow.closed;
    expect(slow.answer()).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow.answer()).toContain('{"error":"Request body not received in time","status":408}');
    const big = trickle(s.base, "/api/donations", 1024 * 1024 + 1, "{");
    await big.closed;
    expect(big.answer()).toMatch(/^HTTP\/1\.1 413 /);
    expect(big.answer()).toContain('{"error":"Request body too large (limit 1 MiB)","status":413}');
    expect(s.entered()).toBe(0);
    expect(s.limiter.snapshot().priority.admitted).toBe(0);
  });

  it("lets a client send only a few large bodies at once (429), and all clients only a bounded total (503); small ones are not counted", async () => {
    const clientOf = (req: http.IncomingMessage) => String(req.headers["x-test-client"] ?? "none");
    const s = await start({ ...env, OVERLOAD_LARGE_BODIES_PER_CLIENT: "2", OVERLOAD_BODY_BUFFER_MB: "1" }, LONG, clientOf);
    const kb = 1024;
    // Client a: two large bodies trickling (300 KiB each); a third is refused at once, before any byte of it is read.
    const a = [
      trickle(s.base, "/api/processor/webhooks", 300 * kb, "{", "a"),
      trickle(s.base, "/api/processor/webhooks", 300 * kb, "{", "a"),
    ];
    while (s.bodies().bytes < 600 * kb) await tick();
    const third = trickle(s.base, "/api/processor/webhooks", 300 * kb, "{", "a");
    await third.closed;
    expect(third.answer()).toMatch(/^HTTP\/1\.1 429 /);
    expect(third.answer()).toMatch(/retry-after: 5/i);
    expect(third.answer()).toContain('{"error":"Too many large requests from this client at once","status":429}');
    // Client b may send one of 300 KiB (900 KiB in all), not a second: the server's 1 MiB budget is spent.
    const b = trickle(s.base, "/api/processor/webhooks", 300 * kb, "{", "b");
    while (s.bodies().bytes < 900 * kb) await tick();
    const over = trickle(s.base, "/api/processor/webhooks", 300 * kb, "{", "c");
    await over.closed;
    expect(over.answer()).toMatch(/^HTTP\/1\.1 503 /);
    expect(over.answer()).toContain('{"error":"Too many large requests at once","status":503}');
    // Small bodies are not counted: client a still gives (its body is a few bytes).
    const donation = fetch(`${s.base}/api/donations`, { method: "POST", body: '{"a":1}', headers: { "x-test-client": "a" } });
    while (s.entered() < 1) await tick();
    expect(s.bodies()).toEqual({ clients: { a: 2, b: 1 }, bytes: 900 * kb });
    // A large body that arrives is admitted and leaves the budget; so does one whose client hangs up.
    a[0].socket.write("}".padStart(300 * kb - 1, " "));
    while (s.entered() < 2) await tick();
    a[1].socket.destroy();
    while (s.bodies().bytes > 300 * kb) await tick();
    expect(s.bodies()).toEqual({ clients: { b: 1 }, bytes: 300 * kb });
    s.gate.open();
    expect((await donation).status).toBe(200);
    b.socket.destroy();
    a[0].socket.destroy();
  });

  it("sheds a path that only looks like a static file", async () => {
    const s = await start({ ...env, OVERLOAD_QUEUE_MS: "1" });
    const held = fetch(`${s.base}/o/x/donate/y.css`);
    while (s.entered() < 1) await tick();
    const lane = Array.from({ length: 2 }, () => fetch(`${s.base}/o/x/donate/z.css`));
    while (s.entered() < 3) await tick();
    const refused = await fetch(`${s.base}/o/x/donate/y.css`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get(SHED_HEADER)).toBe("pages");
    s.gate.open();
    await Promise.all([held, ...lane]);
  });
});
