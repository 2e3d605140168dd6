// Overload shedding for scripts/server.mjs, in front of Next.js (so a refused request costs almost
// nothing). Every request that isn't a static file belongs to a class; each class has a
// concurrency limit and a short queue with a bounded wait. Beyond that it is shed, in this order:
//
//   priority  POST /api/donations, POST /api/processor/webhooks, the sandbox's payment confirmation
//             and the thank-you page a paid donor lands on: a much higher limit, a long queue
//   api       the rest of the API and the dashboard: queued, then 503 with Retry-After
//   pages     public page views: queued, then rendered without the donor roll and leaderboard
//             (the request carries `x-goodfund-load: shed`, which the donate page reads), in a
//             lane of their own; when that is full too, 503 with Retry-After
//   reports   /api/orgs/:org/reports/* and */export: a small limit, then 503 with Retry-After
//
// A lower class never starts a request while a higher one has requests waiting: the queue of the
// class above drains first (the page views' shed lane only yields to the classes above page views). No request waits longer than its class's bound, and shedding never
// answers 500. Limits are per server process (each cluster worker has its own).
import { randomUUID } from "node:crypto";
import os from "node:os";

/** Set on a page request admitted in the shed lane: render the page without its costly sections. */
export const LOAD_HEADER = "x-goodfund-load";
/** On every answer the limiter gives itself (a 503), and on shed-lane pages: the request's class. */
export const SHED_HEADER = "X-Goodfund-Shed";

/**
 * A concurrency limiter over classes given in priority order, highest first. `acquire(name)`
 * resolves to a release function once the request may run, or to null when it is shed (the
 * queue is full, or it waited `maxWaitMs`); `tryAcquire` never queues. A request starts when its
 * class has a free slot and no class above it has requests waiting (except the class it is the
 * `overflowOf`: a lane for what that class's queue could not take).
 *
 * @param {{ name: string; limit: number; queue: number; maxWaitMs: number; overflowOf?: string }[]} classes
 */
export function createLimiter(classes) {
  const order = classes.map((c) => ({
    ...c,
    active: 0,
    /** @type {{ grant: (release: (() => void) | null) => void; timer?: NodeJS.Timeout }[]} */
    waiting: [],
    admitted: 0,
    shed: 0,
    abandoned: 0,
  }));
  const byName = new Map(order.map((c) => [c.name, c]));
  const classOf = (name) => {
    const c = byName.get(name);
    if (!c) throw new Error(`unknown request class ${name}`);
    return c;
  };
  const higherWaiting = (c) => order.slice(0, order.indexOf(c)).some((h) => h.waiting.length > 0 && h.name !== c.overflowOf);
  const canStart = (c) => c.active < c.limit && !higherWaiting(c);

  function start(c) {
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
      while (c.waiting.length > 0 && c.active < c.limit) {
        const w = c.waiting.shift();
        clearTimeout(w.timer);
        w.grant(start(c));
      }
      // Whatever is still waiting here holds every class below it back.
      if (c.waiting.length > 0) return;
    }
  }

  function remove(c, w) {
    const i = c.waiting.indexOf(w);
    if (i < 0) return false;
    c.waiting.splice(i, 1);
    clearTimeout(w.timer);
    // A class above that no longer waits may let a lower one start.
    drain();
    return true;
  }

  return {
    /**
     * @param {string} name
     * @param {AbortSignal} [signal] the client went away: leave the queue (resolves to null, not counted as shed)
     * @returns {Promise<(() => void) | null>}
     */
    acquire(name, signal) {
      const c = classOf(name);
      if (canStart(c)) return Promise.resolve(start(c));
      if (c.waiting.length >= c.queue || c.maxWaitMs <= 0 || signal?.aborted) {
        if (signal?.aborted) c.abandoned++;
        else c.shed++;
        return Promise.resolve(null);
      }
      return new Promise((resolve) => {
        const w = { grant: resolve };
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
        c.waiting.push(w);
      });
    },
    /** @param {string} name @returns {(() => void) | null} */
    tryAcquire(name) {
      const c = classOf(name);
      if (canStart(c)) return start(c);
      c.shed++;
      return null;
    },
    /** Per class: running, waiting, and how many were admitted, shed and abandoned (client gone while queued). */
    snapshot() {
      return Object.fromEntries(
        order.map((c) => [
          c.name,
          { active: c.active, waiting: c.waiting.length, admitted: c.admitted, shed: c.shed, abandoned: c.abandoned },
        ]),
      );
    },
  };
}

const STATIC_FILE = /\.(?:png|jpe?g|gif|webp|avif|svg|ico|css|js|map|txt|xml|webmanifest|woff2?)$/i;

/**
 * The class of a request by method and path, or null for what is never limited (Next.js's static
 * files and the public folder's images).
 * @param {string} method
 * @param {string} pathname
 * @returns {"priority" | "api" | "pages" | "reports" | null}
 */
export function requestClass(method, pathname) {
  if (pathname.startsWith("/_next/") || (!pathname.startsWith("/api/") && STATIC_FILE.test(pathname))) return null;
  if (
    method === "POST" &&
    (pathname === "/api/donations" || pathname === "/api/processor/webhooks" || pathname === "/api/sandbox/payments/confirm")
  ) {
    return "priority";
  }
  // Where a donor lands once paid (app host or an organization's custom domain): never shed.
  if (/^(?:\/o\/[^/]+)?\/donate\/[^/]+\/thank-you\/?$/.test(pathname)) return "priority";
  if (/^\/api\/orgs\/[^/]+\/reports(?:\/|$)/.test(pathname) || /\/export\/?$/.test(pathname)) return "reports";
  if (pathname === "/api" || pathname.startsWith("/api/") || pathname === "/dashboard" || pathname.startsWith("/dashboard/")) return "api";
  return "pages";
}

/**
 * The limits from the environment (lib/env.ts has validated them): OVERLOAD_CONCURRENCY (page
 * views, and the API and dashboard, each; default 4 per core, at least 8),
 * OVERLOAD_PRIORITY_CONCURRENCY (donations, webhooks, payment confirmations; default 8 times
 * that, at least 128), OVERLOAD_REPORTS_CONCURRENCY (default one per core), OVERLOAD_QUEUE_MS (the longest a
 * page view, API call or report waits; default 2000; donations and webhooks wait 5 times that).
 * @param {Record<string, string | undefined>} env
 */
export function overloadLimits(env = process.env, cores = os.availableParallelism()) {
  const int = (name, fallback) => {
    const v = env[name]?.trim();
    return v ? Number(v) : fallback;
  };
  const concurrency = int("OVERLOAD_CONCURRENCY", Math.max(8, 4 * cores));
  // At least 128: a donation waits mostly on the database, and slow uploads hold slots too.
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
export function sheddingEnabled(env = process.env) {
  const v = (env.OVERLOAD_SHEDDING ?? "").trim().toLowerCase();
  return !(v === "0" || v === "false");
}

const RETRY_AFTER = { api: "5", pages: "5", reports: "30", priority: "5" };

/**
 * The server's guard: `guard(req, res, run)` runs `run()` once the request's class admits it
 * (freeing the slot when the response closes), or answers 503 itself. Shed counts are logged as
 * one JSON line (`overload.shed`, cumulative per class) at most once a second while shedding.
 * @param {{ env?: Record<string, string | undefined>; cores?: number; warn?: (line: string) => void }} [o]
 */
export function createOverloadGuard(o = {}) {
  const env = o.env ?? process.env;
  const enabled = sheddingEnabled(env);
  const limiter = createLimiter(overloadLimits(env, o.cores));
  const quiet = ["error", "silent"].includes((env.LOG_LEVEL ?? "").trim().toLowerCase());
  const warn = o.warn ?? ((line) => console.warn(line));
  let logTimer = null;
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

  /**
   * @param {import("node:http").IncomingMessage} req
   * @param {import("node:http").ServerResponse} res
   * @param {() => void} run
   */
  async function guard(req, res, run) {
    delete req.headers[LOAD_HEADER];
    const pathname = (req.url ?? "/").split("?")[0];
    const cls = enabled ? requestClass(req.method ?? "GET", pathname) : null;
    if (!cls) return run();
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
  return { guard, limiter, enabled };
}

/** 503 with Retry-After: the API's JSON error shape under /api, a short page elsewhere. */
function refuse(req, res, cls, pathname) {
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
    "Retry-After": RETRY_AFTER[cls] ?? "5",
    "Cache-Control": "no-store",
    "X-Request-Id": requestId,
    "X-Content-Type-Options": "nosniff",
    [SHED_HEADER]: cls,
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
