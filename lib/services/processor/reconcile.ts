import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "@/db";
import { donationEvents, donations, organizations, processedEvents, reconcileRuns } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import type { PaymentIntentState, PaymentProcessor } from "@/lib/processor/types";
import type { ReconcileRun, Repair } from "@/lib/schemas/reconcile";
import { recordPaymentCancellation } from "@/lib/services/donations/record-payment-cancellation";
import { recordPaymentFailure } from "@/lib/services/donations/record-payment-failure";
import { settlePayment } from "@/lib/services/donations/settle-payment";
import { applyProcessorEvent } from "./apply-processor-event";
import type { EventSource } from "./event-outcome";
import { EVENT_HANDLERS } from "./events";

/** Each run lists again this far before the previous checkpoint (clock skew, events stored late). */
export const RECONCILE_OVERLAP_MINUTES = 10;
/** A first run (no checkpoint yet) looks this far back. */
export const FIRST_RUN_LOOKBACK_HOURS = 72;
/** An unfinished run younger than this holds the lease; an older one died and no longer blocks. */
export const RECONCILE_LEASE_MINUTES = 30;
/** PENDING payments asked about per run, oldest first; a backlog is worked off over the next runs. */
export const PENDING_BATCH = 100;
/** The transaction-level advisory lock under which a run is started (any fixed 64-bit number). */
const START_LOCK = 0x676f6f6466756e64n; // "goodfund"

export type ReconcileOptions = {
  trigger: "schedule" | "manual";
  /** Only start when no run started within this many minutes (the schedule; any instance may ask). */
  dueAfterMinutes?: number;
  /**
   * Only these organizations' events and payments (tests sharing a database). Such a run records
   * no checkpoint: it did not reconcile everything.
   */
  orgIds?: string[];
};

export type ReconcileOutcome = { started: true; run: ReconcileRun } | { started: false; reason: "busy" | "not_due" };

/**
 * Reconciliation with the payment processor: what Goodfund would know had every event arrived.
 *
 * 1. The processor's events of the handled types since the last completed run's checkpoint
 *    (minus an overlap; a first run looks back three days) are listed; any whose ID is not in
 *    `processed_events` is applied through applyProcessorEvent, the webhook's own path, oldest
 *    first. A late delivery of the same event afterwards is a duplicate, so nothing counts twice.
 * 2. One-time donations PENDING longer than `RECONCILE_PENDING_AFTER_MINUTES` have their
 *    PaymentIntent fetched and are settled by the services the events would have called
 *    (success, decline, cancellation), so receipts and outbound webhooks go out exactly once.
 *
 * Every repair is logged and kept on the run's `reconcile_runs` row with its counts; the run's
 * start becomes the next checkpoint once it completes. Only one run at a time across instances:
 * a run is started under an advisory lock, and an unfinished run (younger than the lease) makes
 * others answer `busy`. A failed listing ends the run with its error and no checkpoint, so the
 * next run lists the same window again; an event that fails to apply is logged, the others go on,
 * and the checkpoint stays at or before it, so the next run tries it again. Must not be called
 * inside a transaction.
 */
export async function reconcileWithProcessor(db: Db, processor: PaymentProcessor, options: ReconcileOptions): Promise<ReconcileOutcome> {
  const started = await startRun(db, options);
  if ("reason" in started) return { started: false, reason: started.reason };
  const run = started.run;
  const scope = options.orgIds ? new Set(options.orgIds) : null;
  const repairs: Repair[] = [];
  const counts = { eventsListed: 0, eventsApplied: 0, pendingChecked: 0, pendingSettled: 0 };
  const failures: Failures = { events: [], messages: [] };
  let error: string | null = null;
  let checkpoint: Date | null = scope ? null : run.startedAt;
  try {
    const pass: Pass = { db, processor, run, scope, counts, repairs, failures };
    await reconcileEvents(pass);
    await reconcilePending(pass);
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
    checkpoint = null;
    log.error("reconciliation run failed", { runId: run.id, ...errorFields(err) });
  }
  if (failures.messages.length > 0) {
    error = [error, ...failures.messages].filter(Boolean).join("; ");
    const earliest = Math.min(...failures.events.map((e) => e.created * 1000));
    if (checkpoint && earliest < checkpoint.getTime()) checkpoint = new Date(earliest);
  }
  const [finished] = await db
    .update(reconcileRuns)
    .set({
      ...counts,
      repairs,
      error,
      finishedAt: sql`now()`,
      checkpoint,
    })
    .where(eq(reconcileRuns.id, run.id))
    .returning();
  log.info("reconciliation run", { runId: run.id, trigger: run.trigger, ...counts, repairs: repairs.length, error });
  return { started: true, run: finished as ReconcileRun };
}

async function startRun(db: Db, options: ReconcileOptions): Promise<{ run: ReconcileRun } | { reason: "busy" | "not_due" }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${START_LOCK.toString()}::bigint)`);
    const [running] = await tx
      .select({ id: reconcileRuns.id })
      .from(reconcileRuns)
      .where(
        and(isNull(reconcileRuns.finishedAt), sql`${reconcileRuns.startedAt} > now() - ${`${RECONCILE_LEASE_MINUTES} minutes`}::interval`),
      )
      .limit(1);
    if (running) return { reason: "busy" as const };
    if (options.dueAfterMinutes !== undefined) {
      const [recent] = await tx
        .select({ id: reconcileRuns.id })
        .from(reconcileRuns)
        .where(sql`${reconcileRuns.startedAt} > now() - ${`${options.dueAfterMinutes} minutes`}::interval`)
        .limit(1);
      if (recent) return { reason: "not_due" as const };
    }
    const lastCheckpoint = sql`(select max(${reconcileRuns.checkpoint}) from ${reconcileRuns})`;
    const [run] = await tx
      .insert(reconcileRuns)
      .values({
        trigger: options.trigger,
        listedFrom: sql`coalesce(${lastCheckpoint} - ${`${RECONCILE_OVERLAP_MINUTES} minutes`}::interval, now() - ${`${FIRST_RUN_LOOKBACK_HOURS} hours`}::interval)`,
      })
      .returning();
    return { run: run as ReconcileRun };
  });
}

type Counts = { eventsListed: number; eventsApplied: number; pendingChecked: number; pendingSettled: number };
/** What could not be put right this run (tried again by the next one). */
type Failures = { events: Stripe.Event[]; messages: string[] };

/** One run's inputs and what it gathers as it goes. */
type Pass = {
  db: Db;
  processor: PaymentProcessor;
  run: ReconcileRun;
  /** The organizations the run is limited to, or null for all. */
  scope: Set<string> | null;
  counts: Counts;
  repairs: Repair[];
  failures: Failures;
};

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Lists the window's events, finds those never processed, and applies them oldest first. */
async function reconcileEvents(pass: Pass): Promise<void> {
  const { db, processor, run, scope, counts, repairs, failures } = pass;
  const types = Object.keys(EVENT_HANDLERS);
  const accountRows = await db
    .select({ accountId: organizations.processorAccountId })
    .from(organizations)
    .where(and(isNotNull(organizations.processorAccountId), scope ? inArray(organizations.id, [...scope]) : undefined));
  const accounts = accountRows.map((r) => r.accountId as string);

  const seen = new Set<string>();
  const listed: Stripe.Event[] = [];
  for await (const event of processor.listEvents({ since: run.listedFrom ?? run.startedAt, types, accounts })) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    listed.push(event);
  }
  counts.eventsListed = listed.length;

  const missing: Stripe.Event[] = [];
  for (let i = 0; i < listed.length; i += 500) {
    const chunk = listed.slice(i, i + 500);
    const ids = chunk.map((e) => e.id);
    const done = await db.select({ id: processedEvents.id }).from(processedEvents).where(inArray(processedEvents.id, ids));
    const processed = new Set(done.map((d) => d.id));
    missing.push(...chunk.filter((e) => !processed.has(e.id)));
  }
  // Lists come newest first; effects must follow the order things happened (a dispute after its success).
  missing.reverse();
  missing.sort((a, b) => a.created - b.created);

  for (const event of missing) {
    const target = await eventTarget(db, event);
    if (scope && (!target.orgId || !scope.has(target.orgId))) continue;
    let result: Awaited<ReturnType<typeof applyProcessorEvent>>;
    try {
      result = await applyProcessorEvent(db, event, processor);
    } catch (err) {
      log.warn("reconciliation could not apply an event; will retry", { eventId: event.id, type: event.type, ...errorFields(err) });
      failures.events.push(event);
      failures.messages.push(`event ${event.id} (${event.type}) could not be applied: ${messageOf(err)}`);
      continue;
    }
    if (result !== "applied") continue;
    counts.eventsApplied++;
    const changes = await db
      .select({ donationId: donationEvents.donationId, orgId: donations.orgId, data: donationEvents.data })
      .from(donationEvents)
      .innerJoin(donations, eq(donations.id, donationEvents.donationId))
      .where(eq(donationEvents.processorEventId, event.id));
    const base = { kind: "event" as const, eventId: event.id, eventType: event.type, at: new Date().toISOString() };
    if (changes.length === 0) {
      record(repairs, { ...base, orgId: target.orgId, donationId: target.donationId, paymentIntentId: null, change: "applied" });
    }
    for (const c of changes) {
      record(repairs, {
        ...base,
        orgId: c.orgId,
        donationId: c.donationId,
        paymentIntentId: typeof c.data.paymentIntentId === "string" ? c.data.paymentIntentId : null,
        change: statusChange(c.data),
      });
    }
  }
}

/**
 * One-time donations still PENDING past the threshold: their PaymentIntent decides. A success is
 * settled as `payment_intent.succeeded` would, a cancel as `payment_intent.canceled`, a declined
 * last attempt as `payment_intent.payment_failed` (except for a donation holding event tickets:
 * its payment stays payable until its hold expires). Anything else (the donor never paid, or the
 * payment is still processing) is left for its own event or the abandoned-checkout expiry.
 * Subscriptions' first payments are settled by their invoice's event, listed above.
 */
async function reconcilePending(pass: Pass): Promise<void> {
  const { db, processor, run, scope, counts, repairs, failures } = pass;
  const after = `${getEnv().RECONCILE_PENDING_AFTER_MINUTES} minutes`;
  const due = await db
    .select({ id: donations.id, orgId: donations.orgId, paymentIntentId: donations.paymentIntentId, tickets: donations.tickets })
    .from(donations)
    .where(
      and(
        eq(donations.status, "PENDING"),
        isNotNull(donations.paymentIntentId),
        isNull(donations.subscriptionId),
        isNull(donations.recurringPlanId),
        lt(donations.createdAt, sql`now() - ${after}::interval`),
        scope ? inArray(donations.orgId, [...scope]) : undefined,
      ),
    )
    .orderBy(asc(donations.createdAt))
    .limit(PENDING_BATCH);

  for (const d of due) {
    const paymentIntentId = d.paymentIntentId as string;
    let intent: PaymentIntentState;
    try {
      intent = await processor.getPaymentIntent({ paymentIntentId });
    } catch (err) {
      log.warn("reconciliation could not fetch a payment; will retry", { donationId: d.id, paymentIntentId, ...errorFields(err) });
      continue;
    }
    counts.pendingChecked++;
    const settle = settlerFor(intent, Boolean(d.tickets));
    if (!settle) continue;
    const source: EventSource = { id: `reconcile:${run.id}:${paymentIntentId}`, type: settle.type };
    let moved: string | undefined;
    try {
      moved = await db.transaction(async (tx) => {
        await settle.apply(tx, source, d.id);
        const [after] = await tx.select({ status: donations.status }).from(donations).where(eq(donations.id, d.id));
        return after?.status;
      });
    } catch (err) {
      log.warn("reconciliation could not settle a payment; will retry", { donationId: d.id, paymentIntentId, ...errorFields(err) });
      failures.messages.push(`payment ${paymentIntentId} could not be settled: ${messageOf(err)}`);
      continue;
    }
    if (!moved || moved === "PENDING") continue;
    counts.pendingSettled++;
    record(repairs, {
      kind: "payment",
      orgId: d.orgId,
      donationId: d.id,
      eventId: null,
      eventType: settle.type,
      paymentIntentId,
      change: `PENDING → ${moved}`,
      at: new Date().toISOString(),
    });
  }
}

type Settler = {
  type: string;
  apply: (tx: Parameters<typeof settlePayment>[0], source: EventSource, donationId: string) => Promise<unknown>;
};

function settlerFor(pi: PaymentIntentState, holdsTickets: boolean): Settler | null {
  if (pi.status === "succeeded") {
    return {
      type: "payment_intent.succeeded",
      apply: (tx, source, donationId) =>
        settlePayment(tx, source, {
          paymentIntentId: pi.id,
          donationId,
          chargeId: pi.chargeId,
          amountReceivedCents: pi.amountReceivedCents,
        }),
    };
  }
  if (pi.status === "canceled") {
    return {
      type: "payment_intent.canceled",
      apply: (tx, source, donationId) =>
        recordPaymentCancellation(tx, source, { paymentIntentId: pi.id, donationId, cancellationReason: pi.cancellationReason }),
    };
  }
  if (pi.status === "requires_payment_method" && pi.lastPaymentError && !holdsTickets) {
    const reason = pi.lastPaymentError;
    return {
      type: "payment_intent.payment_failed",
      apply: (tx, source, donationId) => recordPaymentFailure(tx, source, { paymentIntentId: pi.id, donationId, reason }),
    };
  }
  return null;
}

function record(repairs: Repair[], repair: Repair) {
  repairs.push(repair);
  log.info("reconciliation repair", repair);
}

function statusChange(data: Record<string, unknown>): string {
  const from = typeof data.from === "string" ? data.from : null;
  const to = typeof data.to === "string" ? data.to : null;
  if (!from || !to) return "applied";
  return from === to ? `${to} (recorded)` : `${from} → ${to}`;
}

const idOf = (v: unknown): string | null =>
  typeof v === "string"
    ? v
    : v && typeof v === "object" && typeof (v as { id?: unknown }).id === "string"
      ? (v as { id: string }).id
      : null;

/**
 * The organization (and donation) an event is about, read from the identifiers its object
 * carries: the donation's ID in metadata, its PaymentIntent, charge or subscription, else the
 * connected account it happened on. Null when it is about nothing of ours.
 */
export async function eventTarget(db: Db, event: Stripe.Event): Promise<{ orgId: string | null; donationId: string | null }> {
  const obj = event.data.object as unknown as Record<string, any>;
  const metadata = (obj.metadata ?? {}) as Record<string, unknown>;
  const matches: SQL[] = [];
  const add = (
    column: typeof donations.id | typeof donations.paymentIntentId | typeof donations.chargeId | typeof donations.subscriptionId,
    v: unknown,
  ) => {
    const id = idOf(v);
    if (id) matches.push(eq(column, id));
  };
  add(donations.id, metadata.donationId);
  switch (obj.object) {
    case "payment_intent":
      add(donations.paymentIntentId, obj.id);
      break;
    case "charge":
      add(donations.chargeId, obj.id);
      add(donations.paymentIntentId, obj.payment_intent);
      break;
    case "dispute":
      add(donations.chargeId, obj.charge);
      add(donations.paymentIntentId, obj.payment_intent);
      break;
    case "invoice":
      add(donations.subscriptionId, obj.parent?.subscription_details?.subscription ?? obj.subscription);
      break;
    case "subscription":
      add(donations.subscriptionId, obj.id);
      break;
  }
  if (matches.length > 0) {
    const [d] = await db
      .select({ id: donations.id, orgId: donations.orgId, isRenewal: donations.isRenewal })
      .from(donations)
      .where(or(...matches))
      .orderBy(asc(donations.isRenewal), desc(donations.createdAt))
      .limit(1);
    if (d) return { orgId: d.orgId, donationId: d.id };
  }
  const accounts = [event.account, obj.object === "account" ? obj.id : null, idOf(obj.transfer_data?.destination)].filter(
    (a): a is string => typeof a === "string" && a.length > 0,
  );
  if (accounts.length > 0) {
    const [org] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(inArray(organizations.processorAccountId, accounts))
      .limit(1);
    if (org) return { orgId: org.id, donationId: null };
  }
  if (typeof metadata.orgId === "string") return { orgId: metadata.orgId, donationId: null };
  return { orgId: null, donationId: null };
}

/** The last run and, for one organization, what recent runs repaired (newest first). */
export async function reconcileStatusForOrg(
  db: Db,
  orgId: string,
  options: { days?: number; limit?: number } = {},
): Promise<{ lastRun: Pick<ReconcileRun, "id" | "startedAt" | "finishedAt" | "error"> | null; repairs: Repair[] }> {
  const [lastRun] = await db
    .select({ id: reconcileRuns.id, startedAt: reconcileRuns.startedAt, finishedAt: reconcileRuns.finishedAt, error: reconcileRuns.error })
    .from(reconcileRuns)
    .where(isNotNull(reconcileRuns.finishedAt))
    .orderBy(desc(reconcileRuns.startedAt))
    .limit(1);
  const runs = await db
    .select({ repairs: reconcileRuns.repairs })
    .from(reconcileRuns)
    .where(
      and(
        sql`${reconcileRuns.startedAt} > now() - ${`${options.days ?? 30} days`}::interval`,
        sql`${reconcileRuns.repairs} @> ${JSON.stringify([{ orgId }])}::jsonb`,
      ),
    )
    .orderBy(desc(reconcileRuns.startedAt))
    .limit(50);
  const repairs = runs
    .flatMap((r) => (r.repairs as Repair[]).filter((x) => x.orgId === orgId))
    .sort((a, b) => b.at.localeCompare(a.at))
    .slice(0, options.limit ?? 10);
  return { lastRun: lastRun ?? null, repairs };
}
