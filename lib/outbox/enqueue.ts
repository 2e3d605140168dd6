import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { statement, variants } from "@/db/statements";
import { outbox, type OutboxKind } from "@/db/schema";

export type OutboxRow = {
  kind: OutboxKind;
  /** Unique per side effect (`receipt:<donationId>`): enqueueing the same one twice keeps one row. */
  dedupeKey: string;
  orgId: string | null;
  payload: Record<string, unknown>;
};

// The insert of n rows, built once per n (db/statements.ts) for the few rows a change queues; a
// batch (statements to every donor) is built each time instead of kept.
const PREPARED_ROWS = 8;
const insertRows = variants((n: number) =>
  statement(outbox, (db) =>
    db
      .insert(outbox)
      .values(
        Array.from({ length: n }, (_, i) => ({
          kind: sql.placeholder(`kind${i}`),
          dedupeKey: sql.placeholder(`dedupeKey${i}`),
          orgId: sql.placeholder(`orgId${i}`),
          payload: sql.placeholder(`payload${i}`),
        })),
      )
      .onConflictDoNothing({ target: outbox.dedupeKey })
      .returning({ id: outbox.id }),
  ),
);

/**
 * Records side effects to perform after commit, in one statement. Call it with the transaction of
 * the state change that causes them, so both commit or neither does. Answers how many were new:
 * a dedupe key already enqueued is skipped (that effect is already on its way).
 */
export async function enqueueAll(db: DbOrTx, rows: OutboxRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  if (rows.length > PREPARED_ROWS) {
    const inserted = await db
      .insert(outbox)
      .values(rows.map((row) => ({ kind: row.kind, dedupeKey: row.dedupeKey, orgId: row.orgId, payload: row.payload })))
      .onConflictDoNothing({ target: outbox.dedupeKey })
      .returning({ id: outbox.id });
    return inserted.length;
  }
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    values[`kind${i}`] = row.kind;
    values[`dedupeKey${i}`] = row.dedupeKey;
    values[`orgId${i}`] = row.orgId;
    values[`payload${i}`] = row.payload;
  });
  const inserted = await insertRows(rows.length)(db, values);
  return inserted.length;
}

/** One side effect (see enqueueAll); false when its dedupe key was already enqueued. */
export async function enqueue(db: DbOrTx, row: OutboxRow): Promise<boolean> {
  return (await enqueueAll(db, [row])) > 0;
}
