import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { outbox } from "@/db/schema";
import { payloadOnceDone } from "./purge";
import type { OutboxRecord } from "./types";

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

/** Error text fit for the outbox and the logs: one short line, no email addresses. */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text
    .replace(/[^\s@<>"'`,;:()]+@[^\s@<>"'`,;:()]+/g, "<address>")
    .replace(/\s+/g, " ")
    .slice(0, 300);
}

// Both ends of a lease are guarded by status: if this worker's lease ran out and another worker
// finished the row first, a late result changes nothing (a late failure can't reopen a row that
// was sent).

/**
 * Ends the lease of a row that was sent (or needs no sending: `note` says why). The same update
 * drops what the payload asked to purge once sent (a sign-in link).
 */
export async function markSent(db: Db, id: number, note?: string): Promise<void> {
  await db
    .update(outbox)
    .set({ status: "SENT", sentAt: sql`now()`, leaseUntil: null, lastError: note ?? null, payload: payloadOnceDone() })
    .where(and(eq(outbox.id, id), eq(outbox.status, "PENDING")));
}

/**
 * Ends the lease of a row whose attempt failed: due again after the backoff, or FAILED for good
 * after a permanent error or the last attempt, in which case the same update drops what the
 * payload asked to purge (no later attempt will read a sign-in link, so it must not stay at rest).
 */
export async function markFailed(db: Db, row: OutboxRecord, err: unknown): Promise<"retry" | "failed"> {
  const giveUp = err instanceof PermanentDeliveryError || row.attempts >= MAX_ATTEMPTS;
  const delaySeconds = backoffMs(row.attempts) / 1000;
  await db
    .update(outbox)
    .set({
      status: giveUp ? "FAILED" : "PENDING",
      nextAttemptAt: giveUp ? undefined : sql`now() + ${`${delaySeconds} seconds`}::interval`,
      leaseUntil: null,
      lastError: describeError(err),
      payload: giveUp ? payloadOnceDone() : undefined,
    })
    .where(and(eq(outbox.id, row.id), eq(outbox.status, "PENDING")));
  return giveUp ? "failed" : "retry";
}

/**
 * Gives back the leases of claimed rows that were never attempted (a worker stopping mid-batch):
 * due again at once for any worker, their attempt uncounted. Rows no longer PENDING are left alone.
 */
export async function releaseLeases(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(outbox)
    .set({ leaseUntil: null, attempts: sql`greatest(${outbox.attempts} - 1, 0)` })
    .where(and(inArray(outbox.id, [...ids]), eq(outbox.status, "PENDING")));
}
