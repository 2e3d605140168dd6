import { createHash } from "node:crypto";
import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { getDb, type Db, type Tx } from "@/db";
import { campaigns, type OutboxKind } from "@/db/schema";
import { sweepIdempotencyKeys } from "@/lib/api/idempotency";
import { purgeExpiredDonorSessions } from "@/lib/auth/donor-session";
import { purgeExpiredSignInLinks } from "@/lib/services/sign-in/sign-in-links";
import { isEmailTemplate } from "@/lib/email/render";
import { recipientDomain, sendEmail } from "@/lib/email/send";
import type { EmailMessage } from "@/lib/email/types";
import { errorFields, log } from "@/lib/log";
import { claimOutboxRows, type ClaimOptions } from "@/lib/outbox/claim";
import { describeError, markFailed, markSent, MAX_ATTEMPTS, PermanentDeliveryError, releaseLeases } from "@/lib/outbox/lease";
import type { OutboxRecord } from "@/lib/outbox/types";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { expireUnpaidDonations } from "@/lib/services/donations/expire-unpaid-donations";
import { drainImports } from "@/lib/services/imports/apply-import";
import { remindExpiringCards } from "@/lib/services/recurring/remind-expiring-cards";
import { remindUnfinishedGifts } from "@/lib/services/recurring/remind-unfinished-gifts";
import { sendDonorSignInLink } from "@/lib/services/donor-accounts/request-sign-in-link";
import { purgeStaleAccountRows } from "@/lib/services/sessions/purge-sessions";
import { emailAttachments } from "@/lib/services/statements/statement-attachment";
import { inSpan } from "@/lib/telemetry/tracing";
import { startReconciler } from "./reconcile";
import { deliverWebhook } from "@/lib/webhooks-out/deliver";
import { emitCampaignTransitions } from "@/lib/webhooks-out/emit";

export { backoffMs, MAX_ATTEMPTS } from "@/lib/outbox/lease";

/** Rows claimed per run; each send is bounded (15 s), so a full batch finishes well inside the lease. */
export const DEFAULT_BATCH = 25;

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

async function deliverEmail(row: OutboxRecord, { db }: { db: Db }): Promise<void | { skipped: string }> {
  const payload = row.payload as Partial<EmailMessage>;
  if (!isEmailTemplate(payload.template))
    throw new PermanentDeliveryError(`unknown email template ${JSON.stringify(payload.template ?? null)}`);
  if (typeof payload.to !== "string" || !payload.to.includes("@")) throw new PermanentDeliveryError("email payload has no recipient");
  if (typeof payload.props !== "object" || payload.props === null) throw new PermanentDeliveryError("email payload has no props");
  // Attachments (a year-end statement's PDF) are rendered now from the database, never stored in the row.
  const files = await emailAttachments(db, payload as EmailMessage);
  if ("skip" in files) return { skipped: files.skip };
  await sendEmail(payload as EmailMessage, { idempotencyKey: idempotencyKeyFor(row), attachments: files.attachments });
}

/**
 * How each outbox kind leaves the process. A kind mapped to null has no sender yet: its rows are
 * never claimed and stay PENDING until one is registered.
 */
export const DELIVERERS: Record<OutboxKind, Deliver | null> = {
  email: deliverEmail,
  webhook: deliverWebhook,
  "donor-sign-in": (row, { db }) => sendDonorSignInLink(db, row.payload),
};

const deliverableKinds = () => (Object.keys(DELIVERERS) as OutboxKind[]).filter((kind) => DELIVERERS[kind] !== null);

/** Claims up to `limit` due rows of the kinds that have a sender (see claimOutboxRows). */
export function claimDue(db: Db, limit: number, options: ClaimOptions = {}): Promise<OutboxRecord[]> {
  return claimOutboxRows(db, deliverableKinds(), limit, options);
}

/** Delivers one claimed row through its kind's sender and records the outcome (a span of its own when tracing). */
function deliver(db: Db, row: OutboxRecord): Promise<boolean> {
  return inSpan("outbox.deliver", { "outbox.id": row.id, "outbox.kind": row.kind, "outbox.attempt": row.attempts }, () =>
    deliverRow(db, row),
  );
}

async function deliverRow(db: Db, row: OutboxRecord): Promise<boolean> {
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

/** How long one worker run spends applying imports before its other duties (the rest waits for the next run). */
export const IMPORT_SLICE_MS = 10_000;

export type WorkerRunResult = { delivered: number; failed: number; published: number; ended: number };

/**
 * One pass of the worker: campaign transitions, expired ticket holds and abandoned checkouts,
 * reminders of unfinished gifts and expiring cards, committed imports' batches, then one batch of due outbox rows, sent one at a time. `failed` counts failed attempts (retried later, or given up).
 */
export async function runWorkerOnce(db: Db, options: WorkerRunOptions = {}): Promise<WorkerRunResult> {
  const transitions = await runScheduledCampaignTransitions(db);
  const steps = [
    async () => expireUnpaidDonations(db, await getProcessor(), { orgIds: options.orgIds }),
    () => remindUnfinishedGifts(db, { orgIds: options.orgIds }),
    () => remindExpiringCards(db, { orgIds: options.orgIds }),
    () => purgeExpiredSignInLinks(db),
    () => purgeStaleAccountRows(db),
    () => purgeExpiredDonorSessions(db),
    () => sweepIdempotencyKeys(db),
    // Committed imports, also those a restart interrupted: batches for up to IMPORT_SLICE_MS a run.
    () => drainImports(db, { maxMs: IMPORT_SLICE_MS }),
  ];
  // A stopping worker leaves the rest of its duties to the next run (here or on another instance).
  for (const step of steps) if (!options.signal?.aborted) await step();
  const { delivered, failed } = options.signal?.aborted ? { delivered: 0, failed: 0 } : await deliverDueRows(db, options);
  return { delivered, failed, published: transitions.published.length, ended: transitions.ended.length };
}

/** What a worker run covers (`limit` rows of `options`' organizations or IDs), and the signal that stops it early. */
export type WorkerRunOptions = { limit?: number; signal?: AbortSignal } & ClaimOptions;

/**
 * The worker's outbox pass alone: one batch of due rows (of `options`' organizations or IDs), sent
 * one at a time. Once `signal` aborts (the process is shutting down), the row being sent finishes
 * and the rows not yet attempted get their leases back, so another worker takes them at once
 * instead of after the lease (LEASE_SECONDS).
 */
export async function deliverDueRows(db: Db, options: WorkerRunOptions = {}): Promise<{ delivered: number; failed: number }> {
  const rows = await claimDue(db, options.limit ?? DEFAULT_BATCH, options);
  let delivered = 0;
  let failed = 0;
  for (const [i, row] of rows.entries()) {
    if (options.signal?.aborted) {
      const left = rows.slice(i).map((r) => r.id);
      await releaseLeases(db, left);
      log.info("outbox leases released", { rows: left.length });
      break;
    }
    if (await deliver(db, row)) delivered++;
    else failed++;
  }
  return { delivered, failed };
}

export type WorkerHandle = { stop: () => Promise<void> };

/**
 * Runs the worker every `intervalMs` on the process's database: a setTimeout chain, so runs
 * never overlap; a full batch schedules the next run at once. Errors are logged, never thrown.
 * The timer is unref'd unless `keepAlive` (a dedicated worker process has nothing else to wait on).
 * Alongside, unless scoped to some organizations, reconciliation with the processor every
 * `RECONCILE_EVERY_MINUTES` (lib/jobs/reconcile.ts).
 */
export function startWorker(options: { intervalMs?: number; limit?: number; keepAlive?: boolean } & ClaimOptions = {}): WorkerHandle {
  const intervalMs = options.intervalMs ?? 5_000;
  const limit = options.limit ?? DEFAULT_BATCH;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const stopping = new AbortController();

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
        const result = await inSpan("worker.run", {}, async () =>
          runWorkerOnce(await getDb(), { limit, orgIds: options.orgIds, signal: stopping.signal }),
        );
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
  // Reconciliation with the processor covers every organization: not for a worker scoped to some.
  const reconciler = options.orgIds === undefined ? startReconciler({ keepAlive: options.keepAlive }) : undefined;
  log.info("worker started", { intervalMs });
  return {
    // The run in progress finishes the row it is sending and gives back the leases of the others.
    stop: async () => {
      stopped = true;
      stopping.abort();
      if (timer) clearTimeout(timer);
      await Promise.all([running, reconciler?.stop()]);
    },
  };
}
