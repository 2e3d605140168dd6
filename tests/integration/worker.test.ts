import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/db";
import { campaigns, organizations, outbox, type CampaignStatus } from "@/db/schema";
import { enqueueEmail } from "@/lib/email/enqueue";
import { renderEmail } from "@/lib/email/render";
import type { EmailMessage, ReceiptProps } from "@/lib/email/types";
import { resetEnv } from "@/lib/env";
import {
  backoffMs,
  claimDue,
  idempotencyKeyFor,
  MAX_ATTEMPTS,
  runScheduledCampaignTransitions,
  runWorkerOnce,
  startWorker,
} from "@/lib/jobs/worker";
import { enqueue } from "@/lib/outbox/enqueue";
import { peekLimit } from "@/lib/ratelimit";
import { call, randomIp } from "../helpers/api";
import { testDb } from "../helpers/db";
import { startInsideWindow } from "../helpers/rate-window";

// ---------------------------------------------------------------------------------------------
// A local stand-in for the Resend API: the real SDK talks to it through RESEND_BASE_URL.
// ---------------------------------------------------------------------------------------------

type Recorded = { method: string; url: string; headers: IncomingHttpHeaders; body: Record<string, unknown> };
type Mode = "ok" | "500" | "422";

const fake = {
  server: undefined as Server | undefined,
  url: "",
  mode: "ok" as Mode,
  delayMs: 0,
  requests: [] as Recorded[],
};

function startFakeResend(): Promise<void> {
  fake.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      fake.requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: raw ? JSON.parse(raw) : {} });
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      setTimeout(() => {
        if (fake.mode === "500") reply(500, { statusCode: 500, name: "internal_server_error", message: "An unexpected error occurred." });
        else if (fake.mode === "422")
          reply(422, { statusCode: 422, name: "validation_error", message: "Invalid `to` field: zoe@bad is not valid." });
        else reply(200, { id: `re_${randomBytes(8).toString("hex")}` });
      }, fake.delayMs);
    });
  });
  return new Promise((resolve) => {
    fake.server!.listen(0, "127.0.0.1", () => {
      fake.url = `http://127.0.0.1:${(fake.server!.address() as AddressInfo).port}`;
      resolve();
    });
  });
}

const ENV_KEYS = [
  "RESEND_API_KEY",
  "RESEND_BASE_URL",
  "EMAIL_FROM",
  "CRON_SECRET",
  "ABANDONED_AFTER_HOURS",
  "TICKET_HOLD_MINUTES",
] as const;
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

function setEnv(values: Partial<Record<(typeof ENV_KEYS)[number], string | undefined>>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
}

const API_KEY = "re_test_worker_0123456789";
const FROM = "Lighthouse Friends <gifts@lighthouse.example>";

// ---------------------------------------------------------------------------------------------
// Data of this file only: every organization is new, and assertions look at its rows alone, so
// the file can share one Postgres database with others running at the same time.
// ---------------------------------------------------------------------------------------------

let db: Db;
const uid = () => randomBytes(6).toString("hex");

async function newOrgRow(): Promise<string> {
  const id = `org_wrk${uid()}`;
  await db
    .insert(organizations)
    .values({ id, name: "Lighthouse Friends", slug: `wrk-${uid()}`, legalName: "Friends of the Lighthouse, Inc." });
  return id;
}

function receiptProps(overrides: Partial<ReceiptProps> = {}): ReceiptProps {
  return {
    donorFirstName: "Zoë",
    donorName: "Zoë Ångström",
    donorEmail: "zoe@example.org",
    amountCents: 123_456,
    currency: "usd",
    campaignTitle: "Fjällbacka Lighthouse Restoration",
    orgName: "Lighthouse Friends",
    orgLegalName: "Friends of the Lighthouse, Inc.",
    orgTaxId: "98-7654321",
    date: "2025-03-05T14:00:00.000Z",
    donationId: `don_${uid()}`,
    dedication: null,
    recurring: null,
    isRenewal: false,
    tickets: null,
    campaignUrl: "https://goodfund.example.org/o/lighthouse/donate/fjallbacka",
    ...overrides,
  };
}

/** Enqueues a receipt for the org and returns its outbox row. */
async function enqueueReceipt(orgId: string, to = `zoe-${uid()}@example.org`) {
  const props = receiptProps({ donorEmail: to });
  const dedupeKey = `receipt:${props.donationId}`;
  expect(await enqueueEmail(db, { template: "receipt", to, props, dedupeKey, orgId })).toBe(true);
  const [row] = await db
    .select()
    .from(outbox)
    .where(eq(outbox.dedupeKey, `email:${dedupeKey}`));
  return { row, message: { template: "receipt", to, props } as EmailMessage<"receipt"> };
}

const rowById = async (id: number) => (await db.select().from(outbox).where(eq(outbox.id, id)))[0];
const requestsFor = (key: string) => fake.requests.filter((r) => r.headers["idempotency-key"] === key);

beforeAll(async () => {
  db = await testDb();
  await startFakeResend();
});

afterAll(async () => {
  setEnv(savedEnv);
  await new Promise<void>((resolve) => fake.server?.close(() => resolve()));
});

beforeEach(() => {
  fake.mode = "ok";
  fake.delayMs = 0;
  setEnv({ RESEND_API_KEY: API_KEY, RESEND_BASE_URL: fake.url, EMAIL_FROM: FROM, CRON_SECRET: undefined });
});

afterEach(() => setEnv(savedEnv));

describe("outbox worker: email delivery", () => {
  it("sends a due email once through Resend, with the idempotency key, and marks it SENT", async () => {
    const orgId = await newOrgRow();
    const { row, message } = await enqueueReceipt(orgId);
    expect(row).toMatchObject({ kind: "email", status: "PENDING", attempts: 0, orgId });

    const result = await runWorkerOnce(db, { orgIds: [orgId] });
    expect(result).toMatchObject({ delivered: 1, failed: 0 });

    const key = idempotencyKeyFor(row);
    expect(key).toMatch(new RegExp(`^goodfund-outbox-${row.id}-[0-9a-f]{16}$`));
    const sent = requestsFor(key);
    expect(sent).toHaveLength(1);
    const expected = await renderEmail(message);
    expect(sent[0].method).toBe("POST");
    expect(sent[0].url).toBe("/emails");
    expect(sent[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent[0].body).toMatchObject({ from: FROM, to: message.to, subject: expected.subject, html: expected.html, text: expected.text });
    expect(sent[0].body.subject).toContain("Zoë");
    expect(sent[0].body.text).toContain("$1,234.56");

    const after = await rowById(row.id);
    expect(after).toMatchObject({ status: "SENT", attempts: 1, leaseUntil: null, lastError: null });
    expect(after.sentAt).toBeInstanceOf(Date);

    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 0, failed: 0 });
    expect(requestsFor(key)).toHaveLength(1);
  });

  it("retries a failed send with backoff, not before it is due, with the same key and payload", async () => {
    const orgId = await newOrgRow();
    const { row } = await enqueueReceipt(orgId);
    const key = idempotencyKeyFor(row);

    fake.mode = "500";
    const started = Date.now();
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 0, failed: 1 });
    const failed = await rowById(row.id);
    expect(failed).toMatchObject({ status: "PENDING", attempts: 1, leaseUntil: null, sentAt: null });
    expect(failed.lastError).toContain("500");
    expect(failed.lastError).toContain("internal_server_error");
    // First retry: 30 s less up to 20 % jitter.
    const delay = failed.nextAttemptAt.getTime() - started;
    expect(delay).toBeGreaterThan(20_000);
    expect(delay).toBeLessThan(35_000);

    // Not due yet: nothing is sent, even with the server back.
    fake.mode = "ok";
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 0, failed: 0 });
    expect(requestsFor(key)).toHaveLength(1);

    // Time passes: now it is due, and it goes out.
    await db
      .update(outbox)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(outbox.id, row.id));
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 1, failed: 0 });
    const tries = requestsFor(key);
    expect(tries).toHaveLength(2);
    expect(tries[1].body).toEqual(tries[0].body);
    expect(await rowById(row.id)).toMatchObject({ status: "SENT", attempts: 2, lastError: null });
  });

  it("keeps a Resend validation error as last_error (no address in it) and backs off further on each failure", async () => {
    const orgId = await newOrgRow();
    const { row } = await enqueueReceipt(orgId);
    fake.mode = "422";
    await runWorkerOnce(db, { orgIds: [orgId] });
    const first = await rowById(row.id);
    expect(first.lastError).toContain("validation_error");
    expect(first.lastError).not.toContain("zoe@bad");

    await db
      .update(outbox)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(outbox.id, row.id));
    const started = Date.now();
    await runWorkerOnce(db, { orgIds: [orgId] });
    const second = await rowById(row.id);
    expect(second).toMatchObject({ status: "PENDING", attempts: 2 });
    const delay = second.nextAttemptAt.getTime() - started;
    expect(delay).toBeGreaterThan(45_000);
    expect(delay).toBeLessThan(65_000);
  });

  it("gives up after the last attempt: FAILED, never claimed again", async () => {
    const orgId = await newOrgRow();
    const { row } = await enqueueReceipt(orgId);
    await db
      .update(outbox)
      .set({ attempts: MAX_ATTEMPTS - 1 })
      .where(eq(outbox.id, row.id));
    fake.mode = "500";
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ failed: 1 });
    expect(await rowById(row.id)).toMatchObject({ status: "FAILED", attempts: MAX_ATTEMPTS, leaseUntil: null });
    await db
      .update(outbox)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(outbox.id, row.id));
    fake.mode = "ok";
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 0, failed: 0 });
    expect(requestsFor(idempotencyKeyFor(row))).toHaveLength(1);
  });

  it("fails an email with an unknown template at once, without sending", async () => {
    const orgId = await newOrgRow();
    const dedupeKey = `email:bogus:${uid()}`;
    await enqueue(db, { kind: "email", dedupeKey, orgId, payload: { template: "no-such-template", to: "zoe@example.org", props: {} } });
    const before = fake.requests.length;
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 0, failed: 1 });
    const [row] = await db.select().from(outbox).where(eq(outbox.dedupeKey, dedupeKey));
    expect(row).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(row.lastError).toContain("unknown email template");
    expect(fake.requests.length).toBe(before);
  });

  it("two workers running at once deliver each email exactly once", async () => {
    const orgId = await newOrgRow();
    const rows = [];
    for (let i = 0; i < 8; i++) rows.push((await enqueueReceipt(orgId)).row);
    fake.delayMs = 30;
    const results = await Promise.all([
      runWorkerOnce(db, { orgIds: [orgId], limit: 3 }),
      runWorkerOnce(db, { orgIds: [orgId], limit: 3 }),
      runWorkerOnce(db, { orgIds: [orgId], limit: 3 }),
      runWorkerOnce(db, { orgIds: [orgId], limit: 3 }),
    ]);
    expect(results.reduce((n, r) => n + r.delivered, 0)).toBe(8);
    expect(results.reduce((n, r) => n + r.failed, 0)).toBe(0);
    for (const row of rows) {
      expect(requestsFor(idempotencyKeyFor(row)), `row ${row.id}`).toHaveLength(1);
      expect(await rowById(row.id)).toMatchObject({ status: "SENT", attempts: 1 });
    }
  });

  it("concurrent claims take disjoint rows", async () => {
    const orgId = await newOrgRow();
    for (let i = 0; i < 6; i++) await enqueueReceipt(orgId);
    const claims = await Promise.all([
      claimDue(db, 4, { orgIds: [orgId] }),
      claimDue(db, 4, { orgIds: [orgId] }),
      claimDue(db, 4, { orgIds: [orgId] }),
    ]);
    const ids = claims.flat().map((r) => r.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    for (const r of claims.flat()) expect(r.leaseUntil!.getTime()).toBeGreaterThan(Date.now());
  });

  it("does not claim a row another worker holds a lease on", async () => {
    const orgId = await newOrgRow();
    const { row } = await enqueueReceipt(orgId);
    await db
      .update(outbox)
      .set({ leaseUntil: sql`now() + interval '5 minutes'` })
      .where(eq(outbox.id, row.id));
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 0, failed: 0 });
    expect(requestsFor(idempotencyKeyFor(row))).toHaveLength(0);
    expect(await rowById(row.id)).toMatchObject({ status: "PENDING", attempts: 0 });

    // A crashed worker's lease expires, and the row is picked up again.
    await db
      .update(outbox)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(outbox.id, row.id));
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 1 });
    expect(requestsFor(idempotencyKeyFor(row))).toHaveLength(1);
  });

  it("without RESEND_API_KEY keeps the email in the outbox: marked SENT, nothing sent over HTTP", async () => {
    setEnv({ RESEND_API_KEY: undefined });
    const orgId = await newOrgRow();
    const { row } = await enqueueReceipt(orgId);
    const before = fake.requests.length;
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 1, failed: 0 });
    expect(fake.requests.length).toBe(before);
    const after = await rowById(row.id);
    expect(after).toMatchObject({ status: "SENT", attempts: 1 });
    expect(after.payload).toMatchObject({ template: "receipt", to: row.payload.to });
  });

  it("finishes a webhook row whose endpoint no longer exists without sending it, with a note", async () => {
    const orgId = await newOrgRow();
    const dedupeKey = `webhook:evt_gone${uid()}:we_gone${uid()}`;
    await enqueue(db, { kind: "webhook", dedupeKey, orgId, payload: { eventId: `evt_gone${uid()}`, endpointId: `we_gone${uid()}` } });
    const { row: email } = await enqueueReceipt(orgId);
    expect(await runWorkerOnce(db, { orgIds: [orgId] })).toMatchObject({ delivered: 2, failed: 0 });
    const [hook] = await db.select().from(outbox).where(eq(outbox.dedupeKey, dedupeKey));
    expect(hook).toMatchObject({ status: "SENT", attempts: 1, leaseUntil: null, lastError: "endpoint deleted; not sent" });
    expect(await rowById(email.id)).toMatchObject({ status: "SENT" });
  });

  it("startWorker delivers in the background and stops cleanly", async () => {
    const orgId = await newOrgRow();
    const { row } = await enqueueReceipt(orgId);
    const worker = startWorker({ intervalMs: 20, orgIds: [orgId] });
    try {
      await expect.poll(async () => (await rowById(row.id)).status, { timeout: 10_000, interval: 25 }).toBe("SENT");
    } finally {
      await worker.stop();
    }
    expect(requestsFor(idempotencyKeyFor(row))).toHaveLength(1);
  });
});

describe("outbox worker: backoff schedule", () => {
  it("doubles from 30 s, caps at 6 h, jitters down by at most 20 %, and spans about three days", () => {
    expect(backoffMs(1, () => 0)).toBe(30_000);
    expect(backoffMs(1, () => 1)).toBe(24_000);
    expect(backoffMs(2, () => 0)).toBe(60_000);
    expect(backoffMs(5, () => 0)).toBe(480_000);
    expect(backoffMs(11, () => 0)).toBe(6 * 3600_000);
    expect(backoffMs(30, () => 0)).toBe(6 * 3600_000);
    let total = 0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) total += backoffMs(attempt, () => 0);
    expect(total / 3600_000).toBeGreaterThan(60);
    expect(total / 3600_000).toBeLessThan(80);
  });
});

describe("scheduled campaign transitions", () => {
  async function campaign(orgId: string, status: CampaignStatus, dates: { scheduledPublishAt?: Date; endDate?: Date } = {}) {
    const id = `cmp_wrk${uid()}`;
    await db.insert(campaigns).values({
      id,
      orgId,
      title: `Worker ${status}`,
      slug: `wrk-${uid()}`,
      status,
      updatedAt: new Date(Date.now() - 86_400_000),
      ...dates,
    });
    return id;
  }

  it("publishes due scheduled drafts and ends campaigns past their end date, and nothing else", async () => {
    const orgId = await newOrgRow();
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 3_600_000);
    const ids = {
      dueDraft: await campaign(orgId, "DRAFT", { scheduledPublishAt: past }),
      laterDraft: await campaign(orgId, "DRAFT", { scheduledPublishAt: future }),
      plainDraft: await campaign(orgId, "DRAFT"),
      activePast: await campaign(orgId, "ACTIVE", { endDate: past }),
      pausedPast: await campaign(orgId, "PAUSED", { endDate: past }),
      activeFuture: await campaign(orgId, "ACTIVE", { endDate: future }),
      activeOpen: await campaign(orgId, "ACTIVE"),
      endedPast: await campaign(orgId, "ENDED", { endDate: past }),
      draftPastEnd: await campaign(orgId, "DRAFT", { endDate: past }),
    };

    const result = await runScheduledCampaignTransitions(db);
    const mine = (list: string[]) => list.filter((id) => Object.values(ids).includes(id)).sort();
    expect(mine(result.published)).toEqual([ids.dueDraft]);
    expect(mine(result.ended)).toEqual([ids.activePast, ids.pausedPast].sort());

    const rows = await db
      .select()
      .from(campaigns)
      .where(inArray(campaigns.id, Object.values(ids)));
    const status = Object.fromEntries(rows.map((r) => [r.id, r.status]));
    expect(status).toEqual({
      [ids.dueDraft]: "ACTIVE",
      [ids.laterDraft]: "DRAFT",
      [ids.plainDraft]: "DRAFT",
      [ids.activePast]: "ENDED",
      [ids.pausedPast]: "ENDED",
      [ids.activeFuture]: "ACTIVE",
      [ids.activeOpen]: "ACTIVE",
      [ids.endedPast]: "ENDED",
      [ids.draftPastEnd]: "DRAFT",
    });
    const changed = new Set([ids.dueDraft, ids.activePast, ids.pausedPast]);
    for (const r of rows) {
      const age = Date.now() - r.updatedAt.getTime();
      if (changed.has(r.id)) expect(age, r.id).toBeLessThan(60_000);
      else expect(age, r.id).toBeGreaterThan(3_600_000);
    }
    // The publish time stays as it was.
    expect(rows.find((r) => r.id === ids.dueDraft)!.scheduledPublishAt!.getTime()).toBe(past.getTime());

    // Nothing left to do for these campaigns.
    const again = await runScheduledCampaignTransitions(db);
    expect(mine(again.published)).toEqual([]);
    expect(mine(again.ended)).toEqual([]);
  });

  it("reports each transition once when workers run at the same time", async () => {
    const orgId = await newOrgRow();
    const past = new Date(Date.now() - 60_000);
    const draft = await campaign(orgId, "DRAFT", { scheduledPublishAt: past });
    const active = await campaign(orgId, "ACTIVE", { endDate: past });
    const results = await Promise.all([runScheduledCampaignTransitions(db), runScheduledCampaignTransitions(db)]);
    expect(results.flatMap((r) => r.published).filter((id) => id === draft)).toHaveLength(1);
    expect(results.flatMap((r) => r.ended).filter((id) => id === active)).toHaveLength(1);
  });

  it("runWorkerOnce counts the transitions", async () => {
    const orgId = await newOrgRow();
    await campaign(orgId, "DRAFT", { scheduledPublishAt: new Date(Date.now() - 1000) });
    await campaign(orgId, "PAUSED", { endDate: new Date(Date.now() - 1000) });
    const result = await runWorkerOnce(db, { orgIds: [orgId] });
    // Other files' campaigns may be due too when the database is shared.
    expect(result.published).toBeGreaterThanOrEqual(1);
    expect(result.ended).toBeGreaterThanOrEqual(1);
  });
});

describe("GET/POST /api/cron/worker", () => {
  const SECRET = `cron-${randomBytes(16).toString("hex")}`;

  it("GET /api/cron/worker answers 404 when CRON_SECRET is unset", async () => {
    const res = await call("GET", "/api/cron/worker", { headers: { authorization: `Bearer ${SECRET}` } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Not found", status: 404 });
  });

  it("GET /api/cron/worker answers 401 without the right secret", async () => {
    setEnv({ CRON_SECRET: SECRET });
    const attempts: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong" },
      { authorization: `Bearer ${SECRET}x` },
      { authorization: SECRET },
    ];
    for (const headers of attempts) {
      const res = await call("GET", "/api/cron/worker", { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    }
  });

  it("GET and POST /api/cron/worker run the worker once with the right secret", async () => {
    // The cron route runs the whole worker on the whole database, which other test files share:
    // keep it from expiring their deliberately old unpaid donations.
    setEnv({ CRON_SECRET: SECRET, RESEND_API_KEY: undefined, ABANDONED_AFTER_HOURS: "10000000", TICKET_HOLD_MINUTES: "600000000" });
    const orgId = await newOrgRow();
    const { row: queued } = await enqueueReceipt(orgId);
    // Rows are claimed oldest first (by ID): however large a backlog other files sharing the
    // database left, ours goes first, so the cron runs below need not drain theirs.
    const firstId = -Number.parseInt(randomBytes(5).toString("hex"), 16) - 1;
    await db.update(outbox).set({ id: firstId }).where(eq(outbox.id, queued.id));
    const row = { ...queued, id: firstId };
    const res = await call("GET", "/api/cron/worker", { headers: { authorization: `Bearer ${SECRET}` } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["delivered", "ended", "failed", "published"]);
    for (const v of Object.values(res.body)) expect(Number.isInteger(v)).toBe(true);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    // With other files sharing the database the batch may be full of older rows; drain ours.
    for (let i = 0; i < 200 && (await rowById(row.id)).status === "PENDING"; i++) {
      await call("POST", "/api/cron/worker", { headers: { authorization: `Bearer ${SECRET}` } });
    }
    expect(await rowById(row.id)).toMatchObject({ status: "SENT" });

    const post = await call("POST", "/api/cron/worker", { headers: { authorization: `bearer ${SECRET}` } });
    expect(post.status).toBe(200);
    expect((await call("PUT", "/api/cron/worker", { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(405);
  });

  describe("failed authentications, per client IP", () => {
    const cron = (ip: string, secret: string) => call("GET", "/api/cron/worker", { ip, headers: { authorization: `Bearer ${secret}` } });

    it("ten wrong secrets a minute answer 401; then 429 with Retry-After, for the right secret too; other clients are unaffected", async () => {
      setEnv({ CRON_SECRET: SECRET, RESEND_API_KEY: undefined, ABANDONED_AFTER_HOURS: "10000000", TICKET_HOLD_MINUTES: "600000000" });
      await startInsideWindow(10_000);
      const guesser = randomIp();
      for (let i = 0; i < 10; i++) {
        const res = await cron(guesser, `guess-${i}`);
        expect(res.status, `attempt ${i + 1}`).toBe(401);
      }
      const refused = await cron(guesser, "guess-10");
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ error: "Too many requests", status: 429 });
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // While limited, a right guess gets no further: guessing can't go on at full speed.
      expect((await cron(guesser, SECRET)).status).toBe(429);
      // The scheduler, elsewhere, runs as usual.
      expect((await cron(randomIp(), SECRET)).status).toBe(200);
    }, 120_000);

    it("the right secret is never counted: a scheduler calling often is not limited", async () => {
      setEnv({ CRON_SECRET: SECRET, RESEND_API_KEY: undefined, ABANDONED_AFTER_HOURS: "10000000", TICKET_HOLD_MINUTES: "600000000" });
      await startInsideWindow(10_000);
      const scheduler = randomIp();
      // Each call runs the whole worker: the count itself shows that calls with the right secret leave nothing behind.
      expect((await cron(scheduler, SECRET)).status).toBe(200);
      expect((await cron(scheduler, SECRET)).status).toBe(200);
      expect(await peekLimit("cron-auth", scheduler)).toMatchObject({ success: true, remaining: 10 });
      // A few mistakes from the same address are counted, and stay under the limit.
      for (let i = 0; i < 3; i++) expect((await cron(scheduler, "typo")).status).toBe(401);
      expect(await peekLimit("cron-auth", scheduler)).toMatchObject({ success: true, remaining: 7 });
      expect((await cron(scheduler, SECRET)).status).toBe(200);
      expect(await peekLimit("cron-auth", scheduler)).toMatchObject({ remaining: 7 });
    }, 120_000);
  });
});
