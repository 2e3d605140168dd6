import type { DbOrTx } from "@/db";
import { outbox, type OutboxKind } from "@/db/schema";

export type OutboxRow = {
  kind: OutboxKind;
  /** Unique per side effect (`receipt:<donationId>`): enqueueing the same one twice keeps one row. */
  dedupeKey: string;
  orgId: string | null;
  payload: Record<string, unknown>;
};

/**
 * Records side effects to perform after commit, in one statement. Call it with the transaction of
 * the state change that causes them, so both commit or neither does. Answers how many were new:
 * a dedupe key already enqueued is skipped (that effect is already on its way).
 */
export async function enqueueAll(db: DbOrTx, rows: OutboxRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await db
    .insert(outbox)
    .values(rows.map((row) => ({ kind: row.kind, dedupeKey: row.dedupeKey, orgId: row.orgId, payload: row.payload })))
    .onConflictDoNothing({ target: outbox.dedupeKey })
    .returning({ id: outbox.id });
  return inserted.length;
}

/** One side effect (see enqueueAll); false when its dedupe key was already enqueued. */
export async function enqueue(db: DbOrTx, row: OutboxRow): Promise<boolean> {
  return (await enqueueAll(db, [row])) > 0;
}
