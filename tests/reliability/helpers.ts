import { randomBytes } from "node:crypto";
import net from "node:net";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterAll, beforeAll, expect } from "vitest";
import type { Db } from "@/db";
import { issueSessionToken } from "@/lib/services/sessions/session-token";
import * as factory from "@/lib/processor/event-factory";
import { childPids } from "../../bench/lib/app";
import { findViolations } from "../helpers/invariants";
import { ensureBuild, startServer, type RunningServer } from "../helpers/server";

/** A number from the environment (the knobs CI turns down), else `fallback`. */
export function knob(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === "") return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${v}`);
  return n;
}

export const ADMIN_URL = process.env.RELIABILITY_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const WEBHOOK_SECRET = process.env.PROCESSOR_WEBHOOK_SECRET ?? "whsec_reliability_0123456789";
export const SECRETS_ENCRYPTION_KEY = process.env.SECRETS_ENCRYPTION_KEY ?? "cmVsaWFiaWxpdHkta2V5LWZvci1nb29kZnVuZC0zMmI=";
export const NEXTAUTH_SECRET = process.env.NEXTAUTH_SECRET ?? "reliability-secret-for-goodfund-0123456789";

// ---------------------------------------------------------------------------------------------
// A fresh database per test file, on the shared Postgres server (never stopped or restarted).

export type TestDatabase = { name: string; url: string; db: Db; close: () => Promise<void> };

export async function createDatabase(prefix: string): Promise<TestDatabase> {
  const name = `goodfund_rel_${prefix}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = Object.assign(new URL(ADMIN_URL), { pathname: `/${name}` }).toString();
  const client = postgres(url, { max: 3, onnotice: () => {} });
  return {
    name,
    url,
    db: drizzle(client, { casing: "snake_case" }) as unknown as Db,
    close: async () => {
      await client.end({ timeout: 5 });
      if (process.env.RELIABILITY_KEEP_DB === "1") return console.info(`reliability: kept database ${name}`);
      const a = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await a.end();
    },
  };
}

/** What every app instance of these tests runs with. */
export function appEnv(databaseUrl: string, extra: Record<string, string | undefined> = {}) {
  return {
    DATABASE_URL: databaseUrl,
    NEXTAUTH_SECRET,
    PROCESSOR_WEBHOOK_SECRET: WEBHOOK_SECRET,
    WORKER_DISABLED: "1",
    SEED_DEMO: "0",
    STRIPE_SECRET_KEY: undefined,
    PAYMENTS_MODE: "sandbox",
    SECRETS_ENCRYPTION_KEY: SECRETS_ENCRYPTION_KEY,
    LOG_LEVEL: "warn",
    RATE_LIMIT_BACKEND: "memory",
    RATE_LIMIT_PUBLIC_PER_MINUTE: "10000000",
    RATE_LIMIT_AUTHENTICATED_PER_MINUTE: "10000000",
    // Every client here is 127.0.0.1, and the runs decline cards on purpose: don't read that as card testing.
    FAILED_PAYMENTS_LIMIT: "10000000",
    // The runs' gifts say which donor's machine they come from (X-Forwarded-For), so the cap on
    // unpaid tickets one client may hold applies per donor, as it would for real visitors.
    TRUST_PROXY: "1",
    ...extra,
  };
}

/** The process that really serves: server/main.ts, the child of server/start.ts (`proc`). */
export function serverPid(s: RunningServer): number {
  const children = childPids(s.proc.pid!);
  if (children.length !== 1) throw new Error(`expected one server process under ${s.proc.pid}, found ${children.length}`);
  return children[0];
}

/** Slots of app instances; a slot's server can be killed and replaced (on another port). */
export class Instances {
  servers: (RunningServer | null)[] = [];
  /** Servers killed so far (their output is kept). */
  killed: RunningServer[] = [];
  constructor(private env: Record<string, string | undefined>) {}

  async start(count: number) {
    this.servers = await Promise.all(Array.from({ length: count }, () => startServer(this.env)));
  }

  url(slot: number): string | null {
    return this.servers[slot]?.url ?? null;
  }

  /** SIGKILL the serving process of a slot (no shutdown handler runs), and wait until it is gone. */
  async kill(slot: number): Promise<void> {
    const s = this.servers[slot]!;
    const pid = serverPid(s);
    const exited = new Promise<void>((resolve) => (s.proc.exitCode !== null ? resolve() : s.proc.once("exit", () => resolve())));
    this.servers[slot] = null;
    this.killed.push(s);
    process.kill(pid, "SIGKILL");
    await exited; // server/start.ts exits when its child dies
  }

  async restart(slot: number): Promise<void> {
    this.servers[slot] = await startServer(this.env);
  }

  async stopAll() {
    await Promise.all(this.servers.map((s) => s?.stop()));
  }

  /** The distinct error messages the instances logged (JSON log lines at level error), with counts. */
  errorSummary(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of [...this.servers, ...this.killed]) {
      for (const line of s?.output().split("\n") ?? []) {
        if (!line.includes('"level":"error"')) continue;
        let key = line.slice(0, 200);
        try {
          const j = JSON.parse(line);
          key = [j.msg, j.err, String(j.cause ?? j.errMessage ?? "").slice(0, 160)].filter(Boolean).join(" | ");
        } catch {
          // not JSON
        }
        out[key] = (out[key] ?? 0) + 1;
      }
    }
    return out;
  }

  output(): string {
    return this.servers.map((s, i) => `--- instance ${i}\n${s?.output().slice(-4000) ?? "(not running)"}`).join("\n");
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP.

export type Answer = { status: number; body: any; headers: Headers; ms: number; text: string };

/** One request with a time bound; a network failure throws (caught by callers that retry). */
export async function request(url: string, init: RequestInit & { json?: unknown; timeoutMs?: number } = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers.set("content-type", "application/json");
  }
  const started = performance.now();
  const res = await fetch(url, { ...init, headers, body, signal: AbortSignal.timeout(init.timeoutMs ?? 30_000) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers, ms: performance.now() - started, text };
}

/** The API's error shape: `{ error: string, status: number }` matching the HTTP status. */
export function isErrorShape(a: Answer): boolean {
  return Boolean(a.body && typeof a.body === "object" && typeof a.body.error === "string" && a.body.status === a.status);
}

/** `count` tasks run by `concurrency` workers. */
export async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await task(i);
      }
    }),
  );
  return out;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// A deterministic random stream (seeded), so a failing run can be replayed with RELIABILITY_SEED.

export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)] };
}
export type Rng = ReturnType<typeof rng>;

export function shuffle<T>(xs: T[], r: Rng): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

// ---------------------------------------------------------------------------------------------
// An organization with campaigns of every shape the money rules differ on, through the API.

export type Fixture = {
  token: string;
  org: { id: string; slug: string };
  campaigns: { id: string; slug: string; kind: "matched" | "parent" | "page" | "event" | "plain" }[];
};

export async function setUpOrganization(baseUrl: string): Promise<Fixture> {
  const id = randomBytes(5).toString("hex");
  const token = await issueSessionToken({ sub: `usr_rel_${id}`, email: `owner-${id}@example.org`, name: "Reliability Owner" });
  const auth = { authorization: `Bearer ${token}` };
  const must = async (p: string, json: unknown, expected: number) => {
    const a = await request(`${baseUrl}${p}`, { method: "POST", headers: auth, json });
    if (a.status !== expected) throw new Error(`POST ${p}: ${a.status} ${a.text}`);
    return a.body;
  };
  const org = await must("/api/orgs", { name: "Reliability Fund", slug: `rel-${id}`, notificationEmail: `finance-${id}@example.org` }, 201);
  const ob = await must(`/api/orgs/${org.id}/processor/onboarding`, undefined, 200);
  await must(`/api/sandbox/accounts/${ob.processorAccountId}/complete`, undefined, 202);
  const campaign = (body: Record<string, unknown>) =>
    must(`/api/orgs/${org.id}/campaigns`, { title: "Spring appeal", status: "ACTIVE", ...body }, 201);
  const matched = await campaign({ goalAmountCents: 400_000, matchingEnabled: true, matchingRatioPct: 150, matchingMaxCents: 200_000 });
  const parent = await campaign({ type: "PEER_TO_PEER", goalAmountCents: 1_000_000 });
  const page = await campaign({ type: "PEER_TO_PEER", parentCampaignId: parent.id });
  const event = await campaign({ type: "EVENT", ticketPriceCents: 1_000, ticketCapacity: 100_000, allowRecurring: false });
  const plain = await campaign({ goalAmountCents: 50_000 });
  return {
    token,
    org,
    campaigns: [
      { id: matched.id, slug: matched.slug, kind: "matched" },
      { id: parent.id, slug: parent.slug, kind: "parent" },
      { id: page.id, slug: page.slug, kind: "page" },
      { id: event.id, slug: event.slug, kind: "event" },
      { id: plain.id, slug: plain.slug, kind: "plain" },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// The processor's events for donations made through POST /api/donations.

export type Gift = { id: string; amount: number; paymentIntentId: string; subscriptionId: string | null; chargeId: string };
export type Kind = "succeeded" | "failed" | "disputeCreated" | "disputeWon" | "disputeLost" | "refunded" | "invoiceCreate" | "invoiceCycle";
const ONE_TIME: Kind[] = ["succeeded", "succeeded", "failed", "disputeCreated", "disputeWon", "disputeLost", "refunded"];
const RECURRING: Kind[] = [
  "invoiceCreate",
  "invoiceCreate",
  "invoiceCycle",
  "failed",
  "disputeCreated",
  "disputeWon",
  "disputeLost",
  "refunded",
];

/** Makes gifts through the API until their events number at least `events`; answers the events. */
export async function giftsAndEvents(
  baseUrl: string,
  fx: Fixture,
  events: number,
  r: Rng,
): Promise<{ gifts: Gift[]; events: ProcessorEvent[] }> {
  const plans: { campaign: Fixture["campaigns"][number]; recurring: boolean; amount: number; donor: number; kinds: Kind[] }[] = [];
  let total = 0;
  while (total < events) {
    const campaign = r.pick(fx.campaigns);
    const recurring = campaign.kind !== "event" && r.next() < 0.3;
    const pool = recurring ? RECURRING : ONE_TIME;
    // Mostly the happy path (first event a success), then whatever follows.
    const kinds: Kind[] = [recurring ? "invoiceCreate" : "succeeded"];
    const extra = r.int(4);
    for (let i = 0; i < extra; i++) kinds.push(r.pick(pool));
    if (r.next() < 0.15) kinds[0] = "failed";
    plans.push({
      campaign,
      recurring,
      amount: 100 + r.int(50_000),
      donor: r.int(Math.max(4, Math.floor(events / 10))),
      kinds: kinds.slice(0, events - total),
    });
    total += Math.min(kinds.length, events - total);
  }
  const gifts = await pool(plans.length, 8, async (i) => {
    const p = plans[i];
    const tickets = p.campaign.kind === "event" ? 1 + (p.amount % 3) : undefined;
    for (let attempt = 0; ; attempt++) {
      const a = await request(`${baseUrl}/api/donations`, {
        method: "POST",
        headers: { "x-forwarded-for": `10.${(i >> 8) & 255}.${i & 255}.1` },
        json: {
          campaignId: p.campaign.id,
          amount: tickets ? tickets * 1_000 : p.amount,
          email: `donor${p.donor}@example.org`,
          firstName: `Donor${p.donor}`,
          tickets,
          recurringInterval: p.recurring ? "MONTH" : undefined,
          dedication: i % 7 === 0 ? { type: "IN_HONOR", honoreeName: "Grace", notifyEmail: "grace@example.org" } : undefined,
        },
      }).catch((e: Error) => ({ status: 0, text: e.message }) as Answer);
      if (a.status === 201) {
        const b = a.body;
        return {
          id: b.id,
          amount: b.amount,
          paymentIntentId: b.paymentIntentId,
          subscriptionId: b.subscriptionId,
          chargeId: `ch_rel_${b.id}`,
        } as Gift;
      }
      if (attempt >= 5 || (a.status >= 400 && a.status < 500)) throw new Error(`donation not created: ${a.status} ${a.text}`);
      await sleep(200);
    }
  });
  const out = gifts.flatMap((g, i) => plans[i].kinds.map((k, n) => eventFor(k, g, n)));
  return { gifts, events: out };
}

export type ProcessorEvent = { id: string; type: string; payload: string };

function delivery(event: { id: string; type: string }): ProcessorEvent {
  return { id: event.id, type: event.type, payload: JSON.stringify(event) };
}

/** The `n`th event of a gift, made by the app's event factory (the one the sandbox sends too). */
export function eventFor(kind: Kind, g: Gift, n: number): ProcessorEvent {
  const eventId = `evt_rel_${randomBytes(10).toString("hex")}`;
  const intent: factory.PaymentIntentInput = {
    eventId,
    paymentIntentId: g.paymentIntentId,
    amountCents: g.amount,
    currency: "usd",
    chargeId: g.chargeId,
    metadata: g.subscriptionId ? {} : { donationId: g.id },
  };
  const dispute = {
    eventId,
    disputeId: `dp_${g.id}`,
    amountCents: g.amount,
    currency: "usd",
    reason: "fraudulent",
    paymentIntentId: n % 2 === 0 ? g.paymentIntentId : null,
    chargeId: g.chargeId,
    dueBy: Math.floor(Date.now() / 1000) + 7 * 86400,
  };
  const invoice = (billingReason: string, invoiceId: string) =>
    factory.invoicePaymentSucceeded({
      eventId,
      invoiceId,
      subscriptionId: g.subscriptionId as string,
      billingReason,
      amountPaidCents: g.amount,
      currency: "usd",
      paymentIntentId: null,
      chargeId: null,
    });
  switch (kind) {
    case "succeeded":
      return delivery(factory.paymentIntentSucceeded(intent));
    case "failed":
      return delivery(factory.paymentIntentPaymentFailed(intent));
    case "disputeCreated":
      return delivery(factory.chargeDisputeCreated(dispute));
    case "disputeWon":
      return delivery(factory.chargeDisputeClosed({ ...dispute, status: "won" }));
    case "disputeLost":
      return delivery(factory.chargeDisputeClosed({ ...dispute, status: "lost" }));
    case "refunded":
      return delivery(
        factory.chargeRefunded({
          eventId,
          chargeId: g.chargeId,
          paymentIntentId: g.paymentIntentId,
          amountCents: g.amount,
          currency: "usd",
        }),
      );
    case "invoiceCreate":
      return delivery(invoice("subscription_create", `in_first_${g.id}`));
    case "invoiceCycle":
      return delivery(invoice("subscription_cycle", `in_cycle_${g.id}_${n % 2}`));
  }
}

export type DeliveryStats = {
  deliveries: number;
  attempts: number;
  /** Answers by status ("network" for a connection refused, reset or timed out). */
  statuses: Record<string, number>;
  unacknowledged: string[];
  maxMs: number;
};

/**
 * Delivers like the processor: signed (a fresh signature per attempt), to the instance `target()`
 * picks at that moment, redelivered after any answer but 2xx (a 5xx, or no answer at all) with a
 * short backoff, until acknowledged or `maxAttempts`/`deadline` runs out.
 */
export async function deliverAll(
  deliveries: ProcessorEvent[],
  o: {
    concurrency: number;
    target: () => string | null;
    maxAttempts?: number;
    deadline?: number;
    backoffMs?: number;
    /** How long one attempt may take before the processor gives up on it (Stripe: 10 s… we allow 30 s by default). */
    timeoutMs?: number;
    onAttempt?: (a: { status: number | "network" | "timeout"; ms: number; at: number; text?: string }) => void;
  },
): Promise<DeliveryStats> {
  const stats: DeliveryStats = { deliveries: deliveries.length, attempts: 0, statuses: {}, unacknowledged: [], maxMs: 0 };
  const maxAttempts = o.maxAttempts ?? 40;
  const deadline = o.deadline ?? Date.now() + 10 * 60_000;
  await pool(deliveries.length, o.concurrency, async (i) => {
    const ev = deliveries[i];
    for (let attempt = 0; attempt < maxAttempts && Date.now() < deadline; attempt++) {
      const base = o.target();
      let status: number | "network" | "timeout" = "network";
      let text: string | undefined;
      const started = performance.now();
      if (base) {
        try {
          const header = factory.signPayload(ev.payload, WEBHOOK_SECRET);
          const a = await request(`${base}/api/processor/webhooks`, {
            method: "POST",
            headers: { "content-type": "application/json", "stripe-signature": header },
            body: ev.payload,
            timeoutMs: o.timeoutMs ?? 30_000,
          });
          status = a.status;
          text = a.text.slice(0, 200);
          if (status !== 200 && status < 500) throw new Error(`delivery of ${ev.type} ${ev.id} refused: ${a.status} ${a.text}`);
        } catch (err) {
          if (String((err as Error).message).includes("refused:")) throw err;
          if ((err as Error).name === "TimeoutError") status = "timeout";
        }
      }
      const ms = performance.now() - started;
      stats.attempts++;
      stats.maxMs = Math.max(stats.maxMs, ms);
      stats.statuses[String(status)] = (stats.statuses[String(status)] ?? 0) + 1;
      o.onAttempt?.({ status, ms, at: Date.now(), text });
      if (status === 200) return;
      await sleep((o.backoffMs ?? 250) * Math.min(8, attempt + 1));
    }
    stats.unacknowledged.push(ev.id);
  });
  return stats;
}

/** Every event ID sent recorded in processed_events, and no other of ours (the sandbox's own onboarding event is there too). */
export async function processedEventsMismatch(db: Db, events: ProcessorEvent[]): Promise<{ missing: string[]; unexpected: string[] }> {
  const { sql } = await import("drizzle-orm");
  const rows = (await db.execute(sql`select id from processed_events`)) as unknown as { id: string }[];
  const recorded = new Set(rows.map((r) => r.id));
  const sent = new Set(events.map((e) => e.id));
  return {
    missing: [...sent].filter((id) => !recorded.has(id)),
    unexpected: [...recorded].filter((id) => id.startsWith("evt_rel_") && !sent.has(id)),
  };
}

/** Emails per kind and the dedupe keys seen more than once (the unique index makes that impossible; checked anyway). */
export async function emailCounts(db: Db): Promise<{ byTemplate: Record<string, number>; duplicates: number }> {
  const { sql } = await import("drizzle-orm");
  const rows = (await db.execute(
    sql`select payload->>'template' as template, count(*)::int as n, count(*) - count(distinct dedupe_key) as dup from outbox where kind = 'email' group by 1`,
  )) as unknown as { template: string; n: number; dup: number }[];
  return {
    byTemplate: Object.fromEntries(rows.map((r) => [r.template, Number(r.n)])),
    duplicates: rows.reduce((a, r) => a + Number(r.dup), 0),
  };
}

export type RunOutcome = Awaited<ReturnType<typeof runOutcome>>;

/** What the file's database says once `events` were delivered: invariant violations, events not recorded as sent, emails. */
export async function runOutcome(file: FileInstances, events: ProcessorEvent[]) {
  const violations = await findViolations(file.database.db, [file.fx.org.id]);
  const recorded = await processedEventsMismatch(file.database.db, events);
  const emails = await emailCounts(file.database.db);
  return { violations, recorded, emails };
}

/** Every event acknowledged (else `output`, the server's log, explains), applied exactly once, each email queued once. */
export function expectAppliedOnce(stats: DeliveryStats, { violations, recorded, emails }: RunOutcome, output: string): void {
  expect(stats.unacknowledged, output).toEqual([]);
  expect(violations).toEqual([]);
  expect(recorded).toEqual({ missing: [], unexpected: [] });
  expect(emails.duplicates).toBe(0);
}

/** Each event `copies` times, shuffled. */
export function redeliveries(events: ProcessorEvent[], copies: number, r: Rng): ProcessorEvent[] {
  return shuffle(
    events.flatMap((e) => Array.from({ length: copies }, () => e)),
    r,
  );
}

// ---------------------------------------------------------------------------------------------
// A TCP proxy between an app instance and Postgres, which can play "the database is down".

export class PgProxy {
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  port = 0;
  down = false;
  connections = 0;
  refusedWhileDown = 0;

  constructor(private target = { host: "127.0.0.1", port: 5432 }) {}

  private handler = (client: net.Socket) => {
    this.connections++;
    const upstream = net.connect(this.target.port, this.target.host);
    this.sockets.add(client);
    this.sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  async listen(port = 0): Promise<void> {
    this.server = net.createServer(this.handler);
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** The outage: every proxied connection cut, new ones refused (nothing listens) until `resume`. */
  async stop(): Promise<void> {
    this.down = true;
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await closed;
  }

  async resume(): Promise<void> {
    for (let i = 0; ; i++) {
      try {
        await this.listen(this.port);
        break;
      } catch (err) {
        if (i > 50) throw err;
        await sleep(100);
      }
    }
    this.down = false;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server?.listening ? this.server.close(() => resolve()) : resolve()));
  }
}

// ---------------------------------------------------------------------------------------------
// A file's setup.

export type FileInstances = {
  database: TestDatabase;
  instances: Instances;
  /** The organization, campaigns and token made on the instance of `setUpOn`. */
  fx: Fixture;
  /** The TCP proxy the instances reach Postgres through (with `throughProxy`). */
  proxy: PgProxy;
};

/**
 * What every reliability file starts from: the production build, a fresh database named after
 * `prefix`, `count` app instances on it (`env` added to `appEnv`) and an organization set up
 * through instance `setUpOn`; all of it stopped and dropped after the file. With `throughProxy`
 * the instances reach the database through a `PgProxy`, which a test may take down. The fields
 * are filled in by the file's first `beforeAll`, so read them inside tests and later hooks.
 */
export function instancesForFile(
  prefix: string,
  opts: { count: number; setUpOn?: number; env?: Record<string, string | undefined>; throughProxy?: boolean },
): FileInstances {
  const file = {} as FileInstances;
  beforeAll(async () => {
    await ensureBuild();
    file.database = await createDatabase(prefix);
    let databaseUrl = file.database.url;
    if (opts.throughProxy) {
      file.proxy = new PgProxy();
      await file.proxy.listen();
      databaseUrl = file.proxy.url(file.database.name);
    }
    file.instances = new Instances(appEnv(databaseUrl, opts.env));
    await file.instances.start(opts.count);
    file.fx = await setUpOrganization(file.instances.url(opts.setUpOn ?? 0)!);
  }, 600_000);
  afterAll(async () => {
    await file.instances?.stopAll();
    await file.proxy?.close();
    await file.database?.close();
  });
  return file;
}
