// Overload shedding in front of Next.js (so a refused request costs almost nothing). Every
// request that isn't a static file belongs to a class; each class has a concurrency limit and a
// short queue with a bounded wait. Beyond that it is shed, in this order:
//
// The API routes' classes are what they declare in withRoute (`overload`, collected in
// ./routes.generated.ts); pages are classed here.
//
//   priority  what a route declares `overload: "priority"` (starting a donation, the processor's
//             events, the sandbox's payment confirmation), the payment page a started donation
//             leads to and the thank-you page a paid donor lands on: a much higher limit, a long
//             queue
//   api       the rest of the API and the dashboard: queued, then 503 with Retry-After
//   pages     public page views: queued, then rendered without the donor roll and leaderboard
//             (the request carries `x-goodfund-load: shed`, which the donate page reads), in a
//             lane of their own; when that is full too, 503 with Retry-After
//   reports   what a route declares `overload: "reports"` (reports, exports): a small limit,
//             then 503 with Retry-After
//
// A request is admitted only once its body has arrived (./request-body.ts): a client trickling a
// body holds a connection, never a slot. Large bodies (over 64 KiB) wait within budgets: a few
// per client at once (then 429) and a bounded total (then 503), so what sits in memory before
// authentication and rate limits is bounded. While a class above has requests waiting, a class below
// starts no more than a quarter of its limit (its reserve), so a full priority class slows the
// others down but never stops them. No request waits longer than its class's bound, and
// shedding never answers 500. Limits are per server process (each cluster worker has its own).
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import os from "node:os";
import { LOAD_HEADER } from "@/lib/overload";
import type { OverloadClass } from "@/lib/api/route";
import { clientIpOf } from "@/lib/api/client-ip";
import { largeBodyBytes, readBodyFirst, refuseBody } from "./request-body";

export { LOAD_HEADER };
/** On every answer the limiter gives itself (a 503), and on shed-lane pages: the request's class. */
export const SHED_HEADER = "X-Goodfund-Shed";

export type RequestClass = Exclude<OverloadClass, "exempt"> | "pages";
/** The API operations whose class is not "api", as the routes declare them (server/routes.generated.ts). */
export type RouteClasses = readonly { method: string; pattern: RegExp; overload: OverloadClass }[];
/** What `requestClass` knows beyond the request: the routes' declared classes and the files served as they are. */
export type ClassRules = { routeClasses?: RouteClasses; staticFiles?: ReadonlySet<string> };
export type ClassLimit = { name: string; limit: number; queue: number; maxWaitMs: number; overflowOf?: string };
export type ClassStats = { active: number; waiting: number; admitted: number; shed: number; abandoned: number };
export type Release = () => void;
export type Limiter = {
  /**
   * Resolves to a release function once the request may run, or to null when it is shed (the
   * queue is full, or it waited `maxWaitMs`) or `signal` aborted (the client left: not counted as shed).
   */
  acquire(name: string, signal?: AbortSignal): Promise<Release | null>;
  /** Like `acquire`, but never queues. */
  tryAcquire(name: string): Release | null;
  /** Per class: running, waiting, and how many were admitted, shed and abandoned. */
  snapshot(): Record<string, ClassStats>;
};

type Waiter = { grant: (release: Release | null) => void; timer?: NodeJS.Timeout };
type ClassState = ClassLimit & ClassStats & { reserve: number; queued: Waiter[] };

/**
 * A concurrency limiter over classes given in priority order, highest first. A request starts
 * when its class has a free slot; while a class above it has requests waiting (other than the
 * class it is the `overflowOf`: a lane for what that class's queue could not take), only up to
 * its reserve, a quarter of its limit (at least one).
 */
export function createLimiter(classes: ClassLimit[]): Limiter {
  const order: ClassState[] = classes.map((c) => ({
    ...c,
    reserve: Math.max(1, Math.ceil(c.limit / 4)),
    active: 0,
    waiting: 0,
    queued: [],
    admitted: 0,
    shed: 0,
    abandoned: 0,
  }));
  const byName = new Map(order.map((c) => [c.name, c]));
  const classOf = (name: string) => {
    const c = byName.get(name);
    if (!c) throw new Error(`unknown request class ${name}`);
    return c;
  };
  const higherWaiting = (c: ClassState) => order.slice(0, order.indexOf(c)).some((h) => h.queued.length > 0 && h.name !== c.overflowOf);
  const room = (c: ClassState) => c.active < (higherWaiting(c) ? Math.min(c.reserve, c.limit) : c.limit);

  function start(c: ClassState): Release {
    c.active++;
    c.admitted++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      c.active--;
      drain();
    };
  }

  /** Starts waiting requests, highest class first, while their classes have room. */
  function drain() {
    for (const c of order) {
      while (c.queued.length > 0 && room(c)) {
        const w = c.queued.shift()!;
        clearTimeout(w.timer);
        w.grant(start(c));
      }
    }
  }

  function remove(c: ClassState, w: Waiter): boolean {
    const i = c.queued.indexOf(w);
    if (i < 0) return false;
    c.queued.splice(i, 1);
    clearTimeout(w.timer);
    // A class above that no longer waits may let a lower one start.
    drain();
    return true;
  }

  return {
    acquire(name, signal) {
      const c = classOf(name);
      if (c.queued.length === 0 && room(c)) return Promise.resolve(start(c));
      if (c.queued.length >= c.queue || c.maxWaitMs <= 0 || signal?.aborted) {
        if (signal?.aborted) c.abandoned++;
        else c.shed++;
        return Promise.resolve(null);
      }
      return new Promise((resolve) => {
        const w: Waiter = { grant: resolve };
        w.timer = setTimeout(() => {
          if (remove(c, w)) {
            c.shed++;
            resolve(null);
          }
        }, c.maxWaitMs);
        w.timer.unref?.();
        signal?.addEventListener(
          "abort",
          () => {
            if (remove(c, w)) {
              c.abandoned++;
              resolve(null);
            }
          },
          { once: true },
        );
        c.queued.push(w);
      });
    },
    tryAcquire(name) {
      const c = classOf(name);
      if (c.queued.length === 0 && room(c)) return start(c);
      c.shed++;
      return null;
    },
    snapshot() {
      return Object.fromEntries(
        order.map((c) => [
          c.name,
          { active: c.active, waiting: c.queued.length, admitted: c.admitted, shed: c.shed, abandoned: c.abandoned },
        ]),
      );
    },
  };
}

/**
 * The class of a request by method and path, or null for what is never limited: the routes
 * declared `overload: "exempt"` (the health and readiness probes), Next.js's
 * bundles (`/_next/static/`, and the development server's own `/_next/` endpoints) and the files
 * `rules.staticFiles` lists (the public folder's and the app's icons). A path that only looks
 * like a file (`/o/x/donate/y.css`) runs the app's code, so it is classed like any page.
 */
export function requestClass(method: string, pathname: string, rules: ClassRules = {}): RequestClass | null {
  if (rules.staticFiles?.has(pathname)) return null;
  if (pathname.startsWith("/_next/")) return pathname.startsWith("/_next/image") ? "pages" : null;
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    // A route declared `overload: "exempt"` (the health and readiness probes) is never limited.
    for (const r of rules.routeClasses ?? []) {
      if (r.method === method && r.pattern.test(pathname)) return r.overload === "exempt" ? null : r.overload;
    }
    return "api";
  }
  // Where a started donation is paid, and where the donor lands once paid (app host or an
  // organization's custom domain): never shed.
  if (/^(?:\/o\/[^/]+)?\/donate\/[^/]+\/(?:pay|thank-you)\/?$/.test(pathname)) return "priority";
  if (pathname === "/dashboard" || pathname.startsWith("/dashboard/")) return "api";
  return "pages";
}

type Env = Record<string, string | undefined>;

/**
 * The limits from the environment (lib/env.ts has validated them): OVERLOAD_CONCURRENCY (page
 * views, and the API and dashboard, each; default 4 per core, at least 8),
 * OVERLOAD_PRIORITY_CONCURRENCY (donations, webhooks, payment confirmations; default 8 times
 * that, at least 128), OVERLOAD_REPORTS_CONCURRENCY (default one per core), OVERLOAD_QUEUE_MS
 * (the longest a page view, API call or report waits; default 2000; donations and webhooks wait
 * 5 times that).
 */
export function overloadLimits(env: Env = process.env, cores = os.availableParallelism()): ClassLimit[] {
  const int = (name: string, fallback: number) => {
    const v = env[name]?.trim();
    return v ? Number(v) : fallback;
  };
  const concurrency = int("OVERLOAD_CONCURRENCY", Math.max(8, 4 * cores));
  // At least 128: a donation waits mostly on the database.
  const priority = int("OVERLOAD_PRIORITY_CONCURRENCY", Math.max(128, 8 * concurrency));
  const reports = int("OVERLOAD_REPORTS_CONCURRENCY", Math.max(1, cores));
  const queueMs = int("OVERLOAD_QUEUE_MS", 2000);
  return [
    { name: "priority", limit: priority, queue: 4 * priority, maxWaitMs: 5 * queueMs },
    { name: "api", limit: concurrency, queue: 2 * concurrency, maxWaitMs: queueMs },
    { name: "pages", limit: concurrency, queue: concurrency, maxWaitMs: queueMs },
    // Page views past the queue: rendered without the donor roll and leaderboard, never queued.
    { name: "pages-shed", limit: Math.max(2, Math.ceil(concurrency / 2)), queue: 0, maxWaitMs: 0, overflowOf: "pages" },
    { name: "reports", limit: reports, queue: 2 * reports, maxWaitMs: queueMs },
  ];
}

/** Whether shedding is on: OVERLOAD_SHEDDING=0 (or false) turns it off, e.g. to measure raw capacity. */
export function sheddingEnabled(env: Env = process.env): boolean {
  const v = (env.OVERLOAD_SHEDDING ?? "").trim().toLowerCase();
  return !(v === "0" || v === "false");
}

const RETRY_AFTER: Record<RequestClass, string> = { api: "5", pages: "5", reports: "30", priority: "5" };

export type GuardOptions = ClassRules & {
  env?: Env;
  cores?: number;
  warn?: (line: string) => void;
  /** How long a request's body may take to arrive (default 10 s); then 408. */
  bodyDeadlineMs?: number;
  /** The client a request counts for (default: its address as the rate limits see it). */
  clientOf?: (req: IncomingMessage) => string;
  /** Routes that stream a large body themselves (server/routes.generated.ts): admitted without waiting for it. */
  uploadRoutes?: readonly { method: string; pattern: RegExp }[];
};

/**
 * The budgets of large bodies waiting to arrive: OVERLOAD_LARGE_BODIES_PER_CLIENT at once per
 * client (default 4), OVERLOAD_BODY_BUFFER_MB in total per server process (default 64).
 */
export function bodyBudgets(env: Env = process.env): { perClient: number; totalBytes: number } {
  const int = (name: string, fallback: number) => {
    const v = env[name]?.trim();
    return v ? Number(v) : fallback;
  };
  return { perClient: int("OVERLOAD_LARGE_BODIES_PER_CLIENT", 4), totalBytes: int("OVERLOAD_BODY_BUFFER_MB", 64) * 1024 * 1024 };
}

/** The client of a request as the rate limits count it (the stamped address, or the trusted X-Forwarded-For). */
function clientOfRequest(req: IncomingMessage): string {
  return clientIpOf({
    get: (name) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(", ") : (v ?? null);
    },
  });
}

/**
 * The server's guard: `guard(req, res, run)` waits for the request's body (./request-body.ts),
 * then runs `run()` once the request's class admits it (freeing the slot when the response
 * closes), or answers itself: 503 when shed, 413 or 408 for a body too large or too slow. Shed
 * counts are logged as one JSON line (`overload.shed`, cumulative per class) at most once a
 * second while shedding.
 */
export function createOverloadGuard(o: GuardOptions = {}) {
  const env = o.env ?? process.env;
  const enabled = sheddingEnabled(env);
  const limiter = createLimiter(overloadLimits(env, o.cores));
  const quiet = ["error", "silent"].includes((env.LOG_LEVEL ?? "").trim().toLowerCase());
  const warn = o.warn ?? ((line: string) => console.warn(line));
  const rules: ClassRules = { routeClasses: o.routeClasses, staticFiles: o.staticFiles };
  const bodyDeadlineMs = o.bodyDeadlineMs ?? 10_000;
  const budgets = bodyBudgets(env);
  const clientOf = o.clientOf ?? clientOfRequest;
  const largeByClient = new Map<string, number>();
  let largeBytes = 0;

  /** Waits for the body; a large one only within the budgets, counted while it arrives. */
  async function bodyArrival(req: IncomingMessage) {
    const bytes = largeBodyBytes(req);
    if (bytes === 0) return readBodyFirst(req, { deadlineMs: bodyDeadlineMs });
    const client = clientOf(req);
    const held = largeByClient.get(client) ?? 0;
    if (held >= budgets.perClient) return { outcome: "too-many" as const };
    if (largeBytes + bytes > budgets.totalBytes) return { outcome: "no-room" as const };
    largeByClient.set(client, held + 1);
    largeBytes += bytes;
    try {
      return await readBodyFirst(req, { deadlineMs: bodyDeadlineMs });
    } finally {
      largeBytes -= bytes;
      const left = (largeByClient.get(client) ?? 1) - 1;
      if (left > 0) largeByClient.set(client, left);
      else largeByClient.delete(client);
    }
  }
  let logTimer: NodeJS.Timeout | null = null;
  const noteShed = () => {
    if (quiet || logTimer) return;
    logTimer = setTimeout(() => {
      logTimer = null;
      const snap = limiter.snapshot();
      const shed = { priority: snap.priority.shed, api: snap.api.shed, pages: snap.pages.shed, reports: snap.reports.shed };
      // Page views past the shed lane too were refused; the others were served lighter.
      warn(
        JSON.stringify({
          level: "warn",
          msg: "overload.shed",
          shed,
          pagesLight: snap["pages-shed"].admitted,
          pagesRefused: snap["pages-shed"].shed,
        }),
      );
    }, 1000);
    logTimer.unref?.();
  };

  async function guard(req: IncomingMessage, res: ServerResponse, run: () => void): Promise<void> {
    delete req.headers[LOAD_HEADER];
    const pathname = (req.url ?? "/").split("?")[0];
    const cls = requestClass(req.method ?? "GET", pathname, rules);
    if (!cls) return run();
    const upload = o.uploadRoutes?.some((r) => r.method === req.method && r.pattern.test(pathname));
    const arrival = upload ? ({ outcome: "arrived" } as const) : await bodyArrival(req);
    if (arrival.outcome === "gone") return;
    if (arrival.outcome !== "arrived") return refuseBody(req, res, arrival.outcome, pathname);
    if (!enabled) return run();
    const gone = new AbortController();
    const onClose = () => gone.abort();
    res.once("close", onClose);
    let release = await limiter.acquire(cls, gone.signal);
    res.off("close", onClose);
    if (gone.signal.aborted) {
      release?.();
      return;
    }
    if (!release && cls === "pages") {
      release = limiter.tryAcquire("pages-shed");
      if (release) {
        req.headers[LOAD_HEADER] = "shed";
        res.setHeader(SHED_HEADER, "pages");
      }
    }
    if (!release) {
      noteShed();
      return refuse(req, res, cls, pathname);
    }
    if (req.headers[LOAD_HEADER]) noteShed();
    res.once("close", release);
    run();
  }
  /** Large bodies waiting to arrive: per client, and their bytes in total. */
  const bodies = () => ({ clients: Object.fromEntries(largeByClient), bytes: largeBytes });
  return { guard, limiter, enabled, bodies };
}

/** 503 with Retry-After: the API's JSON error shape under /api, a short page elsewhere. */
function refuse(req: IncomingMessage, res: ServerResponse, cls: RequestClass, pathname: string) {
  const incoming = req.headers["x-request-id"];
  const requestId = typeof incoming === "string" && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
  const api = pathname === "/api" || pathname.startsWith("/api/");
  const body = api
    ? JSON.stringify({ error: "Service unavailable", status: 503 })
    : '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      "<title>Busy right now</title></head><body><main><h1>Busy right now</h1>" +
      "<p>So many people are visiting at once that this page could not be shown. Please try again in a few seconds.</p></main></body></html>";
  res.writeHead(503, {
    "Content-Type": api ? "application/json" : "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Retry-After": RETRY_AFTER[cls],
    "Cache-Control": "no-store",
    "X-Request-Id": requestId,
    "X-Content-Type-Options": "nosniff",
    [SHED_HEADER]: cls,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
