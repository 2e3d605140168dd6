import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { outbox, type OutboxKind } from "@/db/schema";
import type { OutboxRecord } from "./types";

/** How long a claim keeps other workers off a row: longer than a whole batch of sends can take. */
export const LEASE_SECONDS = 600;

export type ClaimOptions = {
  /** Only rows of these organizations (tests and manual runs); all rows when absent. */
  orgIds?: string[];
  /** Only these outbox rows (tests of rows without an organization, such as sign-in emails). */
  ids?: number[];
};

/**
 * Claims up to `limit` due rows of the given kinds: one UPDATE (its own
 * short transaction) that leases them for LEASE_SECONDS and counts the attempt.
 * `FOR UPDATE SKIP LOCKED` lets concurrent workers take disjoint rows; the lease keeps others off
 * while this one sends, outside any transaction (PGlite has a single connection), and a crashed
 * worker's lease simply expires.
 */
export async function claimOutboxRows(
  db: Db,
  kinds: readonly OutboxKind[],
  limit: number,
  options: ClaimOptions = {},
): Promise<OutboxRecord[]> {
  if (kinds.length === 0 || limit <= 0 || options.orgIds?.length === 0 || options.ids?.length === 0) return [];
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(
      and(
        eq(outbox.status, "PENDING"),
        lte(outbox.nextAttemptAt, sql`now()`),
        or(isNull(outbox.leaseUntil), lt(outbox.leaseUntil, sql`now()`)),
        inArray(outbox.kind, [...kinds]),
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
