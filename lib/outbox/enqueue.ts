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
 * Records a side effect to perform after commit. Call it with the transaction of the state
 * change that causes it, so both commit or neither does. Returns false when the dedupe key was
 * already enqueued (the effect is already on its way).
 */
export async function enqueue(db: DbOrTx, row: OutboxRow): Promise<boolean> {
  const inserted = await db
    .insert(outbox)
    .values({ kind: row.kind, dedupeKey: row.dedupeKey, orgId: row.orgId, payload: row.payload })
    .onConflictDoNothing({ target: outbox.dedupeKey })
    .returning({ id: outbox.id });
  return inserted.length > 0;
}
