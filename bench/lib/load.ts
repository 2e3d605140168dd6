import { appendFileSync } from "node:fs";
import http from "node:http";
import autocannon, { type Instance, type Request, type Result } from "autocannon";

export type Measured = {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Non-2xx responses plus connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
  concurrency: number;
  note?: string;
  /**
   * The paced runs only: the latest the load generator sent a request after its due time (its own
   * stall, counted in the latencies, since they run from the due time), and the slowest second.
   */
  paced?: { maxSendLagMs: number; worstSecond: { at: number; p99: number; max: number; requests: number } };
  /** CPU milliseconds per request: the app server's process, Postgres's backends, the bench's own process. */
  cpu?: { serverMs: number; postgresMs: number; benchMs: number; serverCorePct: number; postgresCorePct: number };
};

/** Where the CPU went while `run` ran: per completed request, and as a share of one core. */
export async function withCpu(
  probes: { server?: () => number | null; postgres: () => number },
  run: () => Promise<Measured>,
): Promise<Measured> {
  const s0 = probes.server?.() ?? 0;
  const p0 = probes.postgres();
  const b0 = process.cpuUsage();
  const t0 = performance.now();
  const m = await run();
  const seconds = (performance.now() - t0) / 1000;
  const b = process.cpuUsage(b0);
  const server = (probes.server?.() ?? 0) - s0;
  const pg = probes.postgres() - p0;
  const n = Math.max(1, m.requests);
  m.cpu = {
    serverMs: (server * 1000) / n,
    postgresMs: (pg * 1000) / n,
    benchMs: (b.user + b.system) / 1000 / n,
    serverCorePct: (100 * server) / seconds,
    postgresCorePct: (100 * pg) / seconds,
  };
  return m;
}

function fromAutocannon(r: Result, concurrency: number): Measured {
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = s.count;
  const completed = Object.values(statusCodes).reduce((a, b) => a + b, 0) || r.requests.total;
  return {
    requests: completed,
    seconds: r.duration,
    rps: completed / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.non2xx + r.errors + r.timeouts,
    statusCodes,
    concurrency,
  };
}

export type HttpLoad = {
  url: string;
  connections: number;
  duration: number;
  warmup?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Builds each request (a fresh body and signature per request); null when its input ran out. */
  next?: () => Request | null;
  /** Paced: this many requests per second over all connections, instead of back to back. */
  rate?: number;
};

/**
 * A closed-loop HTTP load with autocannon: `connections` keep-alive connections, each sending its
 * next request as soon as the previous answer arrives, for `duration` seconds after `warmup`
 * seconds whose numbers are thrown away.
 */
export async function httpLoad(o: HttpLoad): Promise<Measured> {
  let exhausted = false;
  const run = (duration: number): Instance => {
    // eslint-disable-next-line prefer-const -- assigned once the run starts; the request callback above it reads it
    let instance: Instance | undefined;
    const requests: Request[] | undefined = o.next
      ? [
          {
            method: o.method ?? "POST",
            setupRequest: (req) => {
              const built = o.next!();
              if (!built) {
                exhausted = true;
                instance?.stop();
                return { ...req, ...lastBuilt };
              }
              lastBuilt = built;
              return { ...req, ...built };
            },
          },
        ]
      : undefined;
    let lastBuilt: Request = {};
    const started = autocannon({
      url: o.url,
      connections: o.connections,
      duration,
      timeout: 30,
      ...(o.method ? { method: o.method } : {}),
      ...(o.headers ? { headers: o.headers } : {}),
      ...(o.body ? { body: o.body } : {}),
      ...(requests ? { requests } : {}),
      ...(o.rate ? { overallRate: o.rate } : {}),
    });
    instance = started;
    return started;
  };
  if (o.warmup) await run(o.warmup);
  const result = fromAutocannon(await run(o.duration), o.connections);
  if (exhausted) result.note = "input pool ran out before the end: numbers cover the time until then";
  return result;
}

/** Percentile of sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** `concurrency` loops calling `fn` back to back for `duration` seconds (after `warmup`). */
export async function closedLoop(
  fn: () => Promise<unknown> | null,
  o: { concurrency: number; duration: number; warmup?: number },
): Promise<Measured> {
  const phase = async (seconds: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    let exhausted = false;
    const started = performance.now();
    const end = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: o.concurrency }, async () => {
        while (performance.now() < end && !exhausted) {
          const t = performance.now();
          const p = fn();
          if (!p) {
            exhausted = true;
            break;
          }
          try {
            await p;
            if (record) latencies.push(performance.now() - t);
          } catch (err) {
            errors++;
            if (errors <= 3) console.error(`  ceiling error: ${(err as Error).message}`);
          }
        }
      }),
    );
    return { latencies, errors, seconds: (performance.now() - started) / 1000, exhausted };
  };
  if (o.warmup) await phase(o.warmup, false);
  const r = await phase(o.duration, true);
  r.latencies.sort((a, b) => a - b);
  return {
    requests: r.latencies.length,
    seconds: r.seconds,
    rps: r.latencies.length / r.seconds,
    p50: percentile(r.latencies, 50),
    p99: percentile(r.latencies, 99),
    max: r.latencies[r.latencies.length - 1] ?? 0,
    errors: r.errors,
    statusCodes: {},
    concurrency: o.concurrency,
    note: r.exhausted ? "input pool ran out before the end" : undefined,
  };
}

export type Activity = {
  samples: number;
  connections: number;
  active: number;
  idleInTransaction: number;
  idle: number;
  waitingOnLock: number;
};

/**
 * Samples pg_stat_activity every 50 ms for the connections of one application_name: on average
 * how many of them are running a statement, waiting for their client inside a transaction
 * ("idle in transaction": the app has not sent the next statement yet), idle, or blocked on a
 * lock. Tells whether a workload waits on Postgres or on the app.
 */
export function sampleActivity(sql: import("postgres").Sql, applicationName: string): () => Promise<Activity> {
  const totals = { samples: 0, connections: 0, active: 0, idleInTransaction: 0, idle: 0, waitingOnLock: 0 };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const rows = await sql<{ state: string | null; wait_event_type: string | null }[]>`
        select state, wait_event_type from pg_stat_activity where datname = current_database() and application_name = ${applicationName}`;
      totals.samples++;
      totals.connections += rows.length;
      for (const r of rows) {
        if (r.state === "active") totals.active++;
        else if (r.state?.startsWith("idle in transaction")) totals.idleInTransaction++;
        else if (r.state === "idle") totals.idle++;
        if (r.wait_event_type === "Lock") totals.waitingOnLock++;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    const n = Math.max(1, totals.samples);
    return {
      samples: totals.samples,
      connections: totals.connections / n,
      active: totals.active / n,
      idleInTransaction: totals.idleInTransaction / n,
      idle: totals.idle / n,
      waitingOnLock: totals.waitingOnLock / n,
    };
  };
}

/**
 * An open-loop load: requests sent at evenly spaced instants, `rate` per second, over at most
 * `connections` keep-alive connections, for `duration` seconds. Latency counts from the instant
 * a request was due (so time spent queued for a free connection is included: no coordinated
 * omission). autocannon's own pacing (`overallRate`) releases each connection's quota at the
 * start of every second, i.e. in bursts, which measures queueing behind the burst instead.
 */
export async function pacedLoad(o: {
  url: string;
  connections: number;
  rate: number;
  duration: number;
  next: () => Request | null;
}): Promise<Measured> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.connections });
  const target = new URL(o.url);
  // Per request: when it was due (ms since the start), how late it was sent, its latency.
  const timeline: { due: number; lag: number; latency: number }[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  const total = Math.round(o.rate * o.duration);
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / o.rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const req = o.next();
    if (!req) break;
    const lag = performance.now() - due;
    inflight.push(
      send(agent, target, req).then(
        ({ status }) => {
          timeline.push({ due: due - started, lag, latency: performance.now() - due });
          statusCodes[status] = (statusCodes[status] ?? 0) + 1;
          if (status < 200 || status >= 300) errors++;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inflight);
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  const latencies = timeline.map((t) => t.latency).sort((a, b) => a - b);
  const bySecond = new Map<number, number[]>();
  for (const t of timeline) {
    const s = Math.floor(t.due / 1000);
    const second = bySecond.get(s);
    if (second) second.push(t.latency);
    else bySecond.set(s, [t.latency]);
  }
  let worstSecond = { at: 0, p99: 0, max: 0, requests: 0 };
  for (const [at, l] of bySecond) {
    l.sort((a, b) => a - b);
    const p99 = percentile(l, 99);
    if (p99 > worstSecond.p99) worstSecond = { at, p99, max: l[l.length - 1], requests: l.length };
  }
  const timelineFile = process.env.BENCH_PACED_TIMELINE;
  if (timelineFile) {
    const lines = timeline.sort((a, b) => a.due - b.due).map((t) => `${t.due.toFixed(1)}\t${t.lag.toFixed(1)}\t${t.latency.toFixed(1)}`);
    appendFileSync(
      timelineFile,
      `# paced ${o.url} at ${o.rate}/s, started ${(performance.timeOrigin + started).toFixed(0)} (epoch ms)\n${lines.join("\n")}\n`,
    );
  }
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? 0,
    errors,
    statusCodes,
    concurrency: o.connections,
    paced: { maxSendLagMs: Math.max(0, ...timeline.map((t) => t.lag)), worstSecond },
  };
}

/**
 * One request over a keep-alive `node:http` agent: its status and body. What the load generator
 * uses instead of `fetch`, which costs several times the CPU per request on the machine the server
 * shares; and, like autocannon, it asks for no compression.
 */
export function send(agent: http.Agent, base: URL, req: Request): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const r = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: req.method ?? "GET",
        path: req.path ?? "/",
        headers: { ...req.headers, ...(body ? { "content-length": String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    r.on("error", reject);
    r.end(body);
  });
}
