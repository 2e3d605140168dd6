/**
 * Reconciliation with the payment processor (lib/services/processor/reconcile.ts): deliveries are
 * dropped on purpose (the sandbox's test hook; events the fake Stripe API lists but never sends),
 * then a run lists the processor's events, applies the missed ones through the webhook's own path,
 * and settles payments left PENDING from their PaymentIntent. Totals must come out exact and each
 * email queued once, even when the late webhook arrives afterwards.
 *
 * Every run here is scoped to this file's organizations (`orgIds`), so the file can share one
 * Postgres database with others; the cron route's global run is kept to an empty window.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { and, eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { donations, outbox, payouts, reconcileRuns, sandboxEvents } from "@/db/schema";
import { sandboxEvent } from "@/lib/processor/sandbox";
import { StripeProcessor } from "@/lib/processor/stripe";
import { signedEvent } from "@/lib/processor/event-factory";
import { getSandboxProcessor } from "@/lib/services/processor/get-processor";
import type { ReconcileRun } from "@/lib/schemas/reconcile";
import { reconcileStatusForOrg, reconcileWithProcessor } from "@/lib/services/processor/reconcile";
import { call, get, newOrg, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { setEnv } from "../helpers/local-server";
import {
  newAccount,
  newAccountLink,
  newPaymentIntent,
  ok,
  unrecognized,
  useFakeStripe,
  type StripeReply,
  type StripeRequest,
  stripeEventOf,
} from "../helpers/fake-stripe";
import { findViolations } from "../helpers/invariants";
import { activeCampaign, activeOrg, CARD_DECLINED, pay, paidDonation, startDonation, type Campaign, type Org } from "../helpers/records";

const hex = () => randomBytes(8).toString("hex");
const nowSec = () => Math.floor(Date.now() / 1000);

/** Outbox rows under one dedupe key (each email must be queued exactly once). */
async function queued(dedupeKey: string): Promise<number> {
  const db = await testDb();
  const rows = await db.select({ id: outbox.id }).from(outbox).where(eq(outbox.dedupeKey, dedupeKey));
  return rows.length;
}

async function statusOf(donationId: string): Promise<string> {
  const db = await testDb();
  const [d] = await db.select({ status: donations.status }).from(donations).where(eq(donations.id, donationId));
  return d.status;
}

/** A completed run, or a failure naming why it did not start. */
function completed(outcome: Awaited<ReturnType<typeof reconcileWithProcessor>>): ReconcileRun {
  if (!outcome.started) throw new Error(`the run did not start: ${outcome.reason}`);
  expect(outcome.run.error).toBeNull();
  expect(outcome.run.finishedAt).not.toBeNull();
  return outcome.run;
}

/** Delivers a logged sandbox event to the webhook endpoint, signed, as a late retry of the processor. */
async function deliverLate(event: Stripe.Event) {
  const { payload, signature } = signedEvent(event, process.env.PROCESSOR_WEBHOOK_SECRET!);
  return post("/api/processor/webhooks", undefined, {
    rawBody: payload,
    headers: { "content-type": "application/json", "stripe-signature": signature },
  });
}

async function loggedEvents(type: string, objectId: string): Promise<Stripe.Event[]> {
  const db = await testDb();
  const rows = await db
    .select({ payload: sandboxEvents.payload })
    .from(sandboxEvents)
    .where(and(eq(sandboxEvents.type, type), sql`${sandboxEvents.payload} #>> '{data,object,id}' = ${objectId}`));
  return rows.map((r) => r.payload as unknown as Stripe.Event);
}

/** The app's sandbox, whose deliveries the tests drop on purpose. */
const sandbox = getSandboxProcessor();

afterEach(() => sandbox.dropDeliveries(null));

// ---------------------------------------------------------------------------------------------

describe("reconciliation in sandbox mode", () => {
  let owner: TestUser;
  let org: Org;
  let campaign: Campaign;
  const run = async () => completed(await reconcileWithProcessor(await testDb(), sandbox, { trigger: "manual", orgIds: [org.id] }));

  beforeAll(async () => {
    ({ owner, org } = await activeOrg());
    campaign = await activeCampaign(org, owner, { goalAmountCents: 1_000_000 });
  });

  it("a missed payment_intent.succeeded is applied once; the late webhook is a duplicate; totals and emails exact", async () => {
    const started = await startDonation(campaign.id, { amount: 4200 });
    sandbox.dropDeliveries(() => true);
    const paid = await pay(started.clientSecret);
    sandbox.dropDeliveries(null);
    expect(paid.status).toBe("PENDING");
    expect((await findViolations(await testDb(), [org.id])).map((v) => v.kind)).toEqual([]);

    const result = await run();
    expect(result.eventsApplied).toBeGreaterThanOrEqual(1);
    expect(result.repairs).toContainEqual(
      expect.objectContaining({
        kind: "event",
        eventType: "payment_intent.succeeded",
        donationId: started.id,
        orgId: org.id,
        change: "PENDING → SUCCEEDED",
      }),
    );
    expect(await statusOf(started.id)).toBe("SUCCEEDED");
    expect((await get(`/api/campaigns/${campaign.id}`, { token: owner.token })).body).toMatchObject({
      raisedAmountCents: 4200,
      donationCount: 1,
    });

    // The processor's retry of the same event arrives after the repair: acknowledged, applied once.
    const [event] = await loggedEvents("payment_intent.succeeded", started.paymentIntentId);
    const late = await deliverLate(event);
    expect(late.status, late.text).toBe(200);
    expect(late.body).toEqual({ received: true, duplicate: true });
    // And a second run finds nothing left to do for this organization.
    const again = await run();
    expect(again.repairs).toEqual([]);

    expect(await findViolations(await testDb(), [org.id])).toEqual([]);
    expect(await queued(`email:receipt:${started.id}`)).toBe(1);
    expect(await queued(`email:admin:${started.id}`)).toBe(1);
    expect((await get(`/api/campaigns/${campaign.id}`, { token: owner.token })).body.raisedAmountCents).toBe(4200);
  });

  it("a missed payment_intent.payment_failed fails the donation", async () => {
    const started = await startDonation(campaign.id, { amount: 1300 });
    sandbox.dropDeliveries((e) => e.type === "payment_intent.payment_failed");
    await pay(started.clientSecret, CARD_DECLINED);
    sandbox.dropDeliveries(null);
    expect(await statusOf(started.id)).toBe("PENDING");

    const result = await run();
    expect(result.repairs).toContainEqual(
      expect.objectContaining({ eventType: "payment_intent.payment_failed", donationId: started.id, change: "PENDING → FAILED" }),
    );
    expect(await statusOf(started.id)).toBe("FAILED");
    expect(await queued(`email:receipt:${started.id}`)).toBe(0);
    expect(await findViolations(await testDb(), [org.id])).toEqual([]);
  });

  it("a missed renewal invoice records the renewal once, with its receipt", async () => {
    const monthly = await paidDonation(campaign.id, { amount: 1500, recurringInterval: "MONTH" });
    sandbox.dropDeliveries((e) => e.type === "invoice.payment_succeeded");
    const renewed = await post(`/api/sandbox/subscriptions/${monthly.subscriptionId}/renew`, undefined, { token: owner.token });
    sandbox.dropDeliveries(null);
    expect(renewed.status, renewed.text).toBeLessThan(300);
    const db = await testDb();
    const ofPlan = () => db.select().from(donations).where(eq(donations.subscriptionId, monthly.subscriptionId));
    expect(await ofPlan()).toHaveLength(1);

    const result = await run();
    const rows = await ofPlan();
    expect(rows).toHaveLength(2);
    const renewal = rows.find((d) => d.isRenewal)!;
    expect(renewal.status).toBe("SUCCEEDED");
    expect(result.repairs).toContainEqual(
      expect.objectContaining({ eventType: "invoice.payment_succeeded", donationId: renewal.id, orgId: org.id }),
    );
    expect(await queued(`email:receipt:${renewal.id}`)).toBe(1);
    expect(await findViolations(db, [org.id])).toEqual([]);
  });

  it("a missed charge.dispute.created disputes the donation and takes it out of the totals", async () => {
    const gift = await paidDonation(campaign.id, { amount: 7000 });
    const before = (await get(`/api/campaigns/${campaign.id}`, { token: owner.token })).body.raisedAmountCents as number;
    const disputeId = `dp_${hex()}`;
    sandbox.dropDeliveries(() => true);
    await sandbox.sendEvent(
      sandboxEvent("charge.dispute.created", {
        id: disputeId,
        object: "dispute",
        amount: 7000,
        currency: "usd",
        reason: "fraudulent",
        status: "needs_response",
        payment_intent: gift.paymentIntentId,
        evidence_details: { due_by: nowSec() + 7 * 86400 },
      }),
    );
    sandbox.dropDeliveries(null);
    expect(await statusOf(gift.id)).toBe("SUCCEEDED");

    const result = await run();
    expect(result.repairs).toContainEqual(
      expect.objectContaining({ eventType: "charge.dispute.created", donationId: gift.id, change: "SUCCEEDED → DISPUTED" }),
    );
    expect(await statusOf(gift.id)).toBe("DISPUTED");
    expect((await get(`/api/campaigns/${campaign.id}`, { token: owner.token })).body.raisedAmountCents).toBe(before - 7000);
    expect(await queued(`email:dispute:${disputeId}`)).toBe(1);
    const [event] = await loggedEvents("charge.dispute.created", disputeId);
    expect((await deliverLate(event)).body).toEqual({ received: true, duplicate: true });
    expect(await queued(`email:dispute:${disputeId}`)).toBe(1);
    expect(await findViolations(await testDb(), [org.id])).toEqual([]);
  });

  it("a payment PENDING for over an hour is settled from its PaymentIntent, and a never-paid one is left alone", async () => {
    const db = await testDb();
    const lost = await startDonation(campaign.id, { amount: 900 });
    const unpaid = await startDonation(campaign.id, { amount: 800 });
    sandbox.dropDeliveries(() => true);
    await pay(lost.clientSecret);
    sandbox.dropDeliveries(null);
    // Its event is older than any window a run lists (as if missed long ago), and the gifts two hours old.
    await db
      .update(sandboxEvents)
      .set({ createdAt: sql`now() - interval '5 days'` })
      .where(sql`${sandboxEvents.payload} #>> '{data,object,id}' = ${lost.paymentIntentId}`);
    await db
      .update(donations)
      .set({ createdAt: sql`now() - interval '2 hours'` })
      .where(sql`${donations.id} in (${lost.id}, ${unpaid.id})`);

    const result = await run();
    expect(result.pendingChecked).toBeGreaterThanOrEqual(2);
    expect(result.repairs).toContainEqual(
      expect.objectContaining({
        kind: "payment",
        eventId: null,
        eventType: "payment_intent.succeeded",
        donationId: lost.id,
        paymentIntentId: lost.paymentIntentId,
        change: "PENDING → SUCCEEDED",
      }),
    );
    expect(result.repairs.map((r) => r.donationId)).not.toContain(unpaid.id);
    expect(await statusOf(lost.id)).toBe("SUCCEEDED");
    expect(await statusOf(unpaid.id)).toBe("PENDING");
    expect(await queued(`email:receipt:${lost.id}`)).toBe(1);

    // The event itself turns up late: nothing moves twice.
    const [event] = await loggedEvents("payment_intent.succeeded", lost.paymentIntentId);
    expect((await deliverLate(event)).status).toBe(200);
    expect(await queued(`email:receipt:${lost.id}`)).toBe(1);
    expect(await findViolations(db, [org.id])).toEqual([]);
    expect((await get(`/api/campaigns/${campaign.id}`, { token: owner.token })).body.donationCount).toBeGreaterThanOrEqual(1);
  });

  it("lists from the last checkpoint less the overlap, and records no checkpoint for a scoped run", async () => {
    const db = await testDb();
    const [mark] = await db
      .insert(reconcileRuns)
      .values({ trigger: "schedule", startedAt: sql`now()`, finishedAt: sql`now()`, checkpoint: sql`now() + interval '1 minute'` })
      .returning();
    try {
      const result = await run();
      expect(result.listedFrom!.getTime()).toBe(mark.checkpoint!.getTime() - 10 * 60_000);
      expect(result.checkpoint).toBeNull();
    } finally {
      await db.delete(reconcileRuns).where(eq(reconcileRuns.id, mark.id));
    }
  });

  it("only one run at a time: an unfinished run holds the lease until it expires", async () => {
    const db = await testDb();
    const [other] = await db.insert(reconcileRuns).values({ trigger: "schedule" }).returning();
    try {
      expect(await reconcileWithProcessor(db, sandbox, { trigger: "manual", orgIds: [org.id] })).toEqual({
        started: false,
        reason: "busy",
      });
      // An instance that died mid-run no longer blocks once its lease is over.
      await db
        .update(reconcileRuns)
        .set({ startedAt: sql`now() - interval '31 minutes'` })
        .where(eq(reconcileRuns.id, other.id));
      expect((await reconcileWithProcessor(db, sandbox, { trigger: "manual", orgIds: [org.id] })).started).toBe(true);
    } finally {
      await db.delete(reconcileRuns).where(eq(reconcileRuns.id, other.id));
    }
  });

  it("two runs started at once: one runs, the other is told another is in progress", async () => {
    const db = await testDb();
    // The first run is held at its listing (a processor whose listing waits for the test), so the
    // second surely starts while the first is under way, however fast the first would be.
    let entered!: () => void;
    const listing = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = Object.create(sandbox) as typeof sandbox;
    held.listEvents = async function* (input) {
      entered();
      await gate;
      yield* sandbox.listEvents(input);
    };
    const first = reconcileWithProcessor(db, held, { trigger: "manual", orgIds: [org.id] });
    await listing;
    const second = await reconcileWithProcessor(db, sandbox, { trigger: "schedule", orgIds: [org.id] });
    release();
    expect(second).toEqual({ started: false, reason: "busy" });
    expect((await first).started).toBe(true);
  });

  it("the schedule starts a run only when none started within the interval", async () => {
    const db = await testDb();
    completed(await reconcileWithProcessor(db, sandbox, { trigger: "manual", orgIds: [org.id] }));
    expect(await reconcileWithProcessor(db, sandbox, { trigger: "schedule", dueAfterMinutes: 15, orgIds: [org.id] })).toEqual({
      started: false,
      reason: "not_due",
    });
  });

  it("the overview shows the last run and this organization's repairs only", async () => {
    const db = await testDb();
    const status = await reconcileStatusForOrg(db, org.id, { limit: 50 });
    expect(status.lastRun?.finishedAt).toBeInstanceOf(Date);
    expect(status.repairs.length).toBeGreaterThanOrEqual(5);
    expect(status.repairs.every((r) => r.orgId === org.id)).toBe(true);
    const { org: other } = await newOrg();
    expect((await reconcileStatusForOrg(db, other.id)).repairs).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Stripe mode: the real SDK against a local fake of `GET /v1/events` and `GET /v1/payment_intents/:id`.

describe("reconciliation in Stripe mode", () => {
  /** Events Stripe "sent" (newest last): listed by the fake, never delivered unless a test does. */
  const events: Array<{ account: string | null; event: Record<string, unknown> }> = [];
  const intents = new Map<string, Record<string, unknown>>();
  let owner: TestUser;
  let org: Org;
  let campaign: Campaign;
  let accountId: string;
  const stripe = new StripeProcessor();
  const run = async () => completed(await reconcileWithProcessor(await testDb(), stripe, { trigger: "manual", orgIds: [org.id] }));

  function stripeEvent(type: string, object: Record<string, unknown>, account: string | null = null) {
    const event = { ...stripeEventOf(`evt_${hex()}`, type, object), ...(account ? { account } : {}) };
    events.push({ account, event });
    return event as unknown as Stripe.Event;
  }

  /** The fake's `GET /v1/events`: newest first, two a page, filtered by `created[gte]`, `types[]` and `Stripe-Account`. */
  function listEvents(rec: StripeRequest) {
    const gte = Number(rec.query.get("created[gte]") ?? 0);
    const types = [...rec.query.entries()].filter(([k]) => k.startsWith("types[")).map(([, v]) => v);
    const account = (rec.headers["stripe-account"] as string | undefined) ?? null;
    const all = events
      .filter((e) => e.account === account)
      .map((e) => e.event)
      .filter((e) => (e.created as number) >= gte && (types.length === 0 || types.includes(e.type as string)))
      .reverse();
    const after = rec.query.get("starting_after");
    const from = after ? all.findIndex((e) => e.id === after) + 1 : 0;
    const page = all.slice(from, from + 2);
    return { object: "list", url: "/v1/events", has_more: from + 2 < all.length, data: page };
  }

  function route(rec: StripeRequest): StripeReply {
    if (rec.method === "GET" && rec.path === "/v1/events") return ok(listEvents(rec));
    const pi = /^\/v1\/payment_intents\/(pi_\w+)$/.exec(rec.path);
    if (pi && rec.method === "GET") {
      const intent = intents.get(pi[1]);
      if (!intent)
        return {
          status: 404,
          body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such payment_intent: '${pi[1]}'` } },
        };
      return { status: 200, body: intent };
    }
    if (rec.method === "POST" && rec.path === "/v1/payment_intents") {
      const body = newPaymentIntent(rec.form);
      intents.set(body.id, body);
      return ok(body);
    }
    if (rec.method === "POST" && rec.path === "/v1/accounts") return ok(newAccount(rec.form));
    if (rec.method === "POST" && rec.path === "/v1/account_links") return ok(newAccountLink(rec.form));
    return unrecognized(rec);
  }

  /** The PaymentIntent at the fake, as if the donor's payment reached Stripe. */
  function succeed(paymentIntentId: string) {
    const intent = intents.get(paymentIntentId)!;
    Object.assign(intent, { status: "succeeded", amount_received: intent.amount, latest_charge: `ch_${hex()}` });
    return intent;
  }

  const fake = useFakeStripe(route, { env: { PAYMENTS_MODE: "stripe" } });
  const { requests } = fake;

  beforeAll(async () => {
    ({ owner, org } = await newOrg(undefined, { notificationEmail: "finance@goodfund-test.org" }));
    const onboarding = await post(`/api/orgs/${org.id}/processor/onboarding`, undefined, { token: owner.token });
    expect(onboarding.status, onboarding.text).toBe(200);
    accountId = onboarding.body.processorAccountId;
    // Even the account's activation was missed: reconciliation lists it from the connected account.
    stripeEvent("account.updated", { id: accountId, object: "account", charges_enabled: true, payouts_enabled: true }, accountId);
    completed(await reconcileWithProcessor(await testDb(), stripe, { trigger: "manual", orgIds: [org.id] }));
    org = (await get(`/api/orgs/${org.id}`, { token: owner.token })).body;
    expect(org.status).toBe("ACTIVE");
    campaign = await activeCampaign(org, owner);
  });

  it("lists the platform's events page by page and each connected account's own, filtered to the handled types", async () => {
    requests.length = 0;
    await run();
    const lists = requests.filter((r) => r.method === "GET" && r.path === "/v1/events");
    const platform = lists.filter((r) => !r.headers["stripe-account"]);
    expect(platform.length).toBeGreaterThanOrEqual(1);
    const types = [...platform[0].query.entries()].filter(([k]) => k.startsWith("types[")).map(([, v]) => v);
    expect(types).toEqual(expect.arrayContaining(["payment_intent.succeeded", "invoice.payment_succeeded", "charge.dispute.created"]));
    expect(platform[0].query.get("limit")).toBe("100");
    expect(Number(platform[0].query.get("created[gte]"))).toBeGreaterThan(nowSec() - 73 * 3600);
    const connected = lists.filter((r) => r.headers["stripe-account"] === accountId);
    expect(connected.length).toBeGreaterThanOrEqual(1);
    expect(
      [...connected[0].query.entries()]
        .filter(([k]) => k.startsWith("types["))
        .map(([, v]) => v)
        .sort(),
    ).toEqual(["account.updated", "payout.failed", "payout.paid"]);
  });

  it("applies missed payment successes across pages, a missed payout, and a late webhook changes nothing", async () => {
    const gifts = [];
    for (const amount of [2500, 3100, 1700]) {
      const res = await post("/api/donations", { campaignId: campaign.id, amount, email: `d-${hex()}@example.org` });
      expect(res.status, res.text).toBe(201);
      gifts.push(res.body);
    }
    const sent = gifts.map((g) => stripeEvent("payment_intent.succeeded", succeed(g.paymentIntentId)));
    const payoutId = `po_${hex()}`;
    stripeEvent(
      "payout.paid",
      { id: payoutId, object: "payout", amount: 7300, currency: "usd", status: "paid", arrival_date: nowSec(), failure_message: null },
      accountId,
    );

    const result = await run();
    for (const g of gifts) {
      expect(await statusOf(g.id)).toBe("SUCCEEDED");
      expect(result.repairs).toContainEqual(expect.objectContaining({ kind: "event", donationId: g.id, change: "PENDING → SUCCEEDED" }));
    }
    expect(result.repairs).toContainEqual(expect.objectContaining({ eventType: "payout.paid", orgId: org.id }));
    const db = await testDb();
    expect(await db.select().from(payouts).where(eq(payouts.id, payoutId))).toHaveLength(1);

    // Stripe's own retry of one of them, much later.
    const { payload, signature } = signedEvent(sent[1], process.env.PROCESSOR_WEBHOOK_SECRET!);
    const late = await post("/api/processor/webhooks", undefined, {
      rawBody: payload,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });
    expect(late.body).toEqual({ received: true, duplicate: true });
    expect((await get(`/api/campaigns/${campaign.id}`, { token: owner.token })).body).toMatchObject({
      raisedAmountCents: 7300,
      donationCount: 3,
    });
    for (const g of gifts) expect(await queued(`email:receipt:${g.id}`)).toBe(1);
    expect(await findViolations(db, [org.id])).toEqual([]);
  });

  it("settles payments PENDING for over an hour from GET /v1/payment_intents/:id: succeeded, declined, not yet paid", async () => {
    const db = await testDb();
    const start = async (amount: number) => {
      const res = await post("/api/donations", { campaignId: campaign.id, amount, email: `d-${hex()}@example.org` });
      expect(res.status, res.text).toBe(201);
      return res.body as { id: string; paymentIntentId: string };
    };
    const paid = await start(5000);
    const declined = await start(600);
    const waiting = await start(700);
    succeed(paid.paymentIntentId);
    Object.assign(intents.get(declined.paymentIntentId)!, {
      last_payment_error: { type: "card_error", code: "card_declined", message: "Your card was declined." },
    });
    await db
      .update(donations)
      .set({ createdAt: sql`now() - interval '90 minutes'` })
      .where(sql`${donations.id} in (${paid.id}, ${declined.id}, ${waiting.id})`);

    requests.length = 0;
    const result = await run();
    const fetched = requests.filter((r) => r.method === "GET" && r.path.startsWith("/v1/payment_intents/")).map((r) => r.path);
    expect(fetched).toEqual(expect.arrayContaining([paid, declined, waiting].map((d) => `/v1/payment_intents/${d.paymentIntentId}`)));
    expect(result.pendingSettled).toBe(2);
    expect(await statusOf(paid.id)).toBe("SUCCEEDED");
    expect(await statusOf(declined.id)).toBe("FAILED");
    expect(await statusOf(waiting.id)).toBe("PENDING");
    expect(result.repairs).toContainEqual(
      expect.objectContaining({
        kind: "payment",
        donationId: declined.id,
        eventType: "payment_intent.payment_failed",
        change: "PENDING → FAILED",
      }),
    );
    const [failed] = await db.select().from(donations).where(eq(donations.id, declined.id));
    expect(failed.failureReason).toBe("Your card was declined.");

    // The success event then arrives after all: acknowledged, nothing counted twice.
    const late = stripeEvent("payment_intent.succeeded", intents.get(paid.paymentIntentId)!);
    const { payload, signature } = signedEvent(late, process.env.PROCESSOR_WEBHOOK_SECRET!);
    const res = await post("/api/processor/webhooks", undefined, {
      rawBody: payload,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });
    expect(res.status).toBe(200);
    expect(await queued(`email:receipt:${paid.id}`)).toBe(1);
    expect(await queued(`email:admin:${paid.id}`)).toBe(1);
    expect(await findViolations(db, [org.id])).toEqual([]);
  });

  it("an event that cannot be applied is reported and tried again, and the others are applied meanwhile", async () => {
    const broken = stripeEvent(
      "payout.paid",
      { id: `po_${hex()}`, object: "payout", amount: null, currency: "usd", status: "paid", arrival_date: nowSec() },
      accountId,
    );
    const gift = await post("/api/donations", { campaignId: campaign.id, amount: 1100, email: `d-${hex()}@example.org` });
    expect(gift.status, gift.text).toBe(201);
    stripeEvent("payment_intent.succeeded", succeed(gift.body.paymentIntentId));
    try {
      const first = await reconcileWithProcessor(await testDb(), stripe, { trigger: "manual", orgIds: [org.id] });
      if (!first.started) throw new Error("the run did not start");
      expect(first.run.error).toContain(`event ${broken.id} (payout.paid) could not be applied`);
      expect(await statusOf(gift.body.id)).toBe("SUCCEEDED");
      const second = await reconcileWithProcessor(await testDb(), stripe, { trigger: "manual", orgIds: [org.id] });
      if (!second.started) throw new Error("the run did not start");
      expect(second.run.error).toContain(broken.id);
      expect(second.run.repairs).toEqual([]);
    } finally {
      events.splice(
        events.findIndex((e) => e.event.id === broken.id),
        1,
      );
    }
    expect(await findViolations(await testDb(), [org.id])).toEqual([]);
  });

  it("a processor outage ends the run with its error and no checkpoint", async () => {
    const db = await testDb();
    const { server } = fake;
    const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    const port = (server.address() as AddressInfo).port;
    server.closeAllConnections();
    await close();
    try {
      const outcome = await reconcileWithProcessor(
        db,
        new StripeProcessor(new Stripe("sk_test_goodfund", { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0 })),
        {
          trigger: "manual",
          orgIds: [org.id],
        },
      );
      expect(outcome.started).toBe(true);
      if (!outcome.started) return;
      expect(outcome.run.error).toMatch(/Stripe|connect|ECONNREFUSED/i);
      expect(outcome.run.checkpoint).toBeNull();
      expect(outcome.run.finishedAt).not.toBeNull();
    } finally {
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe("POST /api/cron/reconcile", () => {
  const SECRET = `cron-${randomBytes(16).toString("hex")}`;
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const k of ["CRON_SECRET", "RECONCILE_PENDING_AFTER_MINUTES"]) saved[k] = process.env[k];
  });
  afterAll(() => setEnv(saved));

  it("answers 404 while CRON_SECRET is unset and 401 without the right secret", async () => {
    setEnv({ CRON_SECRET: undefined });
    expect((await call("POST", "/api/cron/reconcile", { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(404);
    setEnv({ CRON_SECRET: SECRET });
    const attempts: Array<Record<string, string>> = [{}, { authorization: "Bearer wrong" }, { authorization: SECRET }];
    for (const headers of attempts) {
      const res = await call("POST", "/api/cron/reconcile", { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    }
  });

  it("runs a reconciliation and answers its summary; 409 while another run holds the lease", async () => {
    // The route reconciles the whole database, which other test files share: keep its window empty
    // (a checkpoint ahead of now) and leave their PENDING payments alone.
    setEnv({ CRON_SECRET: SECRET, RECONCILE_PENDING_AFTER_MINUTES: "100000000" });
    const db = await testDb();
    const [ahead] = await db
      .insert(reconcileRuns)
      .values({ trigger: "schedule", finishedAt: sql`now()`, checkpoint: sql`now() + interval '1 hour'` })
      .returning();
    try {
      const res = await call("POST", "/api/cron/reconcile", { headers: { authorization: `Bearer ${SECRET}` } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ trigger: "manual", eventsListed: 0, eventsApplied: 0, pendingSettled: 0, repairs: [], error: null });
      expect(res.body.checkpoint).toBe(res.body.startedAt);
      expect(Date.parse(res.body.listedFrom)).toBe(ahead.checkpoint!.getTime() - 10 * 60_000);

      const [busy] = await db.insert(reconcileRuns).values({ trigger: "schedule" }).returning();
      try {
        const conflict = await call("POST", "/api/cron/reconcile", { headers: { authorization: `Bearer ${SECRET}` } });
        expect(conflict.status).toBe(409);
        expect(conflict.body).toEqual({ error: "A reconciliation run is already in progress", status: 409 });
      } finally {
        await db.delete(reconcileRuns).where(eq(reconcileRuns.id, busy.id));
      }
      // The manual run is recorded like the scheduled ones.
      const [row] = await db.select().from(reconcileRuns).where(eq(reconcileRuns.id, res.body.id));
      expect(row.trigger).toBe("manual");
    } finally {
      await db.delete(reconcileRuns).where(eq(reconcileRuns.id, ahead.id));
    }
  });
});
