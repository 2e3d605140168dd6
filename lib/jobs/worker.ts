import { createHash } from "node:crypto";
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import { getDb, type Db, type Tx } from "@/db";
import { campaigns, outbox, type OutboxKind } from "@/db/schema";
import { purgeExpiredSignInLinks } from "@/lib/auth/sign-in-links";
import { isEmailTemplate } from "@/lib/email/render";
import { recipientDomain, sendEmail } from "@/lib/email/send";
import type { EmailMessage } from "@/lib/email/types";
import { errorFields, log } from "@/lib/log";
import { payloadOnceSent } from "@/lib/outbox/purge";
import { getProcessor } from "@/lib/processor";
import { expireTicketHolds } from "@/lib/services/donations/expire-ticket-holds";
import { deliverWebhook } from "@/lib/webhooks-out/deliver";
import { emitCampaignTransitions } from "@/lib/webhooks-out/emit";

export type OutboxRecord = typeof outbox.$inferSelect;

/** How long a claim keeps other workers off a row: longer than a whole batch of sends can take. */
export const LEASE_SECONDS = 600;
/** Rows claimed per run; each send is bounded (15 s), so a full batch finishes well inside the lease. */
export const DEFAULT_BATCH = 25;
/** Attempts before a row is given up as FAILED: with the backoff below, about three days. */
export const MAX_ATTEMPTS = 22;
const BASE_DELAY_MS = 30_000;
const MAX_DELAY_MS = 6 * 60 * 60 * 1000;

/**
 * Delay before the next try after `attempts` failed ones: 30 s · 2^(attempts-1), capped at 6 h,
 * less up to 20 % of jitter so rows that failed together don't retry in lockstep. The first retry
 * comes within 30 s; the 22nd attempt falls about 3 days (2.5–3.1) after the first.
 */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  const base = Math.min(BASE_DELAY_MS * 2 ** exponent, MAX_DELAY_MS);
  return Math.round(base * (1 - 0.2 * random()));
}

/** A failure that no retry can fix (an unknown template, a malformed payload): FAILED at once. */
export class PermanentDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PermanentDeliveryError";
  }
}

/**
 * The `Idempotency-Key` of a row's sends: the same on every retry, so a crash between the send
 * and the SENT mark can't make the provider deliver twice. The dedupe key's hash keeps keys of
 * two databases (staging and production on one Resend account, a reset dev database) apart.
 */
export function idempotencyKeyFor(row: Pick<OutboxRecord, "id" | "dedupeKey">): string {
  const tag = createHash("sha256").update(row.dedupeKey).digest("hex").slice(0, 16);
  return `goodfund-outbox-${row.id}-${tag}`;
}

/**
 * Sends one claimed row; throws to have it retried. Runs outside any transaction. A row that no
 * longer needs sending (its target is gone) answers `{ skipped }`: SENT, with that note as its
 * `lastError`.
 */
type Deliver = (row: OutboxRecord, ctx: { db: Db }) => Promise<void | { skipped: string }>;

async function deliverEmail(row: OutboxRecord): Promise<void> {
  const payload = row.payload as Partial<EmailMessage>;
  if (!isEmailTemplate(payload.template)) throw new PermanentDeliveryError(`unknown email template ${JSON.stringify(payload.template ?? null)}`);
  if (typeof payload.to !== "string" || !payload.to.includes("@")) throw new PermanentDeliveryError("email payload has no recipient");
  if (typeof payload.props !== "object" || payload.props === null) throw new PermanentDeliveryError("email payload has no props");
  await sendEmail(payload as EmailMessage, { idempotencyKey: idempotencyKeyFor(row) });
}

/**
 * How each outbox kind leaves the process. A kind mapped to null has no sender yet: its rows are
 * never claimed and stay PENDING until one is registered.
 */
export const DELIVERERS: Record<OutboxKind, Deliver | null> = {
  email: deliverEmail,
  webhook: deliverWebhook,
};

const deliverableKinds = () => (Object.keys(DELIVERERS) as OutboxKind[]).filter((kind) => DELIVERERS[kind] !== null);

export type ClaimOptions = {
  /** Only rows of these organizations (tests and manual runs); all rows when absent. */
  orgIds?: string[];
  /** Only these outbox rows (tests of rows without an organization, such as sign-in emails). */
  ids?: number[];
};

/**
 * Claims up to `limit` due rows: one UPDATE (its own short transaction) that leases them for
 * LEASE_SECONDS and counts the attempt. `FOR UPDATE SKIP LOCKED` lets concurrent workers take
 * disjoint rows; the lease keeps others off while this one sends, outside any transaction
 * (PGlite has a single connection), and a crashed worker's lease simply expires.
 */
export async function claimDue(db: Db, limit: number, options: ClaimOptions = {}): Promise<OutboxRecord[]> {
  const kinds = deliverableKinds();
  if (kinds.length === 0 || limit <= 0 || options.orgIds?.length === 0 || options.ids?.length === 0) return [];
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.status, "PENDING"),
        lte(outbox.nextAttemptAt, sql`now()`),
        or(isNull(outbox.leaseUntil), lt(outbox.leaseUntil, sql`now()`)),
        inArray(outbox.kind, kinds),
        options.orgIds ? inArray(outbox.orgId, options.orgIds) : undefined,
        options.ids ? inArray(outbox.id, options.ids) : undefined,
      ),
    )
    .orderBy(asc(outbox.id))
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(outbox)
    .set({ leaseUntil: sql`now() + ${`${LEASE_SECONDS} seconds`}::interval`, attempts: sql`${outbox.attempts} + 1` })
    .where(inArray(outbox.id, due))
    .returning();
  return claimed.sort((a, b) => a.id - b.id);
}

/** Error text fit for the outbox and the logs: one short line, no email addresses. */
function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/[^\s@<>"'`,;:()]+@[^\s@<>"'`,;:()]+/g, "<address>").replace(/\s+/g, " ").slice(0, 300);
}

// Guarded by status: if this worker's lease ran out and another worker finished the row first,
// a late result changes nothing (a late failure can't reopen a row that was sent).
// The same update drops what the payload asked to purge once sent (a sign-in link).
async function markSent(db: Db, id: number, note?: string): Promise<void> {
  await db
    .update(outbox)
    .set({ status: "SENT", sentAt: sql`now()`, leaseUntil: null, lastError: note ?? null, payload: payloadOnceSent() })
    .where(and(eq(outbox.id, id), eq(outbox.status, "PENDING")));
}

async function markFailed(db: Db, row: OutboxRecord, err: unknown): Promise<"retry" | "failed"> {
  const giveUp = err instanceof PermanentDeliveryError || row.attempts >= MAX_ATTEMPTS;
  const delaySeconds = backoffMs(row.attempts) / 1000;
  await db
    .update(outbox)
    .set({
      status: giveUp ? "FAILED" : "PENDING",
      nextAttemptAt: giveUp ? undefined : sql`now() + ${`${delaySeconds} seconds`}::interval`,
      leaseUntil: null,
      lastError: describeError(err),
    })
    .where(and(eq(outbox.id, row.id), eq(outbox.status, "PENDING")));
  return giveUp ? "failed" : "retry";
}

/** Delivers one claimed row through its kind's sender and records the outcome. */
async function deliver(db: Db, row: OutboxRecord): Promise<boolean> {
  const send = DELIVERERS[row.kind as OutboxKind];
  const context = {
    outboxId: row.id,
    kind: row.kind,
    attempt: row.attempts,
    ...(row.kind === "email" ? { template: row.payload.template, toDomain: recipientDomain(String(row.payload.to ?? "")) } : {}),
  };
  let sent: void | { skipped: string };
  try {
    // Attempts past the limit mean earlier tries died mid-send (the lease expired each time).
    if (row.attempts > MAX_ATTEMPTS) throw new PermanentDeliveryError(`gave up after ${MAX_ATTEMPTS} attempts`);
    if (!send) throw new PermanentDeliveryError(`no sender for outbox kind ${row.kind}`);
    sent = await send(row, { db });
  } catch (err) {
    const outcome = await markFailed(db, row, err);
    log.warn(outcome === "failed" ? "outbox delivery failed for good" : "outbox delivery failed; will retry", {
      ...context,
      error: describeError(err),
    });
    return false;
  }
  await markSent(db, row.id, sent ? sent.skipped : undefined);
  return true;
}

export type TransitionedCampaign = { id: string; orgId: string };
export type CampaignTransitions = { published: TransitionedCampaign[]; ended: TransitionedCampaign[] };

/**
 * Called in the transaction of the scheduled transitions, with the campaigns each one changed:
 * where `campaign.published` / `campaign.ended` outbound webhooks are emitted, so events and
 * status changes commit together.
 */
export async function onCampaignsTransitioned(tx: Tx, rows: CampaignTransitions): Promise<void> {
  await emitCampaignTransitions(tx, rows);
}

/**
 * Publishes DRAFT campaigns whose `scheduledPublishAt` has come and ends ACTIVE/PAUSED ones past
 * their `endDate`, in one transaction with the hook above. Row locks make concurrent workers
 * change (and report) each campaign once. A draft that is both due and past its end date is
 * published, then ended.
 */
export async function runScheduledCampaignTransitions(db: Db): Promise<{ published: string[]; ended: string[] }> {
  return db.transaction(async (tx) => {
    const published = await tx
      .update(campaigns)
      .set({ status: "ACTIVE", updatedAt: sql`now()` })
      .where(and(eq(campaigns.status, "DRAFT"), lte(campaigns.scheduledPublishAt, sql`now()`)))
      .returning({ id: campaigns.id, orgId: campaigns.orgId });
    const ended = await tx
      .update(campaigns)
      .set({ status: "ENDED", updatedAt: sql`now()` })
      .where(and(inArray(campaigns.status, ["ACTIVE", "PAUSED"]), lte(campaigns.endDate, sql`now()`)))
      .returning({ id: campaigns.id, orgId: campaigns.orgId });
    await onCampaignsTransitioned(tx, { published, ended });
    return { published: published.map((c) => c.id), ended: ended.map((c) => c.id) };
  });
}

export type WorkerRunResult = { delivered: number; failed: number; published: number; ended: number };

/**
 * One pass of the worker: campaign transitions, expired ticket holds, then one batch of due
 * outbox rows, sent one at a time. `failed` counts failed attempts (retried later, or given up).
 */
export async function runWorkerOnce(db: Db, options: { limit?: number } & ClaimOptions = {}): Promise<WorkerRunResult> {
  const transitions = await runScheduledCampaignTransitions(db);
  await expireTicketHolds(db, await getProcessor(), { orgIds: options.orgIds });
  await purgeExpiredSignInLinks(db);
  const rows = await claimDue(db, options.limit ?? DEFAULT_BATCH, options);
  let delivered = 0;
  let failed = 0;
  for (const row of rows) {
    if (await deliver(db, row)) delivered++;
    else failed++;
  }
  return { delivered, failed, published: transitions.published.length, ended: transitions.ended.length };
}

export type WorkerHandle = { stop: () => Promise<void> };

/**
 * Runs the worker every `intervalMs` on the process's database: a setTimeout chain, so runs
 * never overlap; a full batch schedules the next run at once. Errors are logged, never thrown.
 * The timer is unref'd unless `keepAlive` (a dedicated worker process has nothing else to wait on).
 */
export function startWorker(options: { intervalMs?: number; limit?: number; keepAlive?: boolean } & ClaimOptions = {}): WorkerHandle {
  const intervalMs = options.intervalMs ?? 5_000;
  const limit = options.limit ?? DEFAULT_BATCH;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(tick, delay);
    if (!options.keepAlive) timer.unref();
  };

  const tick = () => {
    timer = undefined;
    running = (async () => {
      let next = intervalMs;
      try {
        const result = await runWorkerOnce(await getDb(), { limit, orgIds: options.orgIds });
        if (result.delivered + result.failed + result.published + result.ended > 0) log.info("worker run", result);
        if (result.delivered + result.failed >= limit) next = 0;
      } catch (err) {
        log.error("worker run failed", errorFields(err));
      }
      running = undefined;
      schedule(next);
    })();
  };

  schedule(0);
  log.info("worker started", { intervalMs });
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
