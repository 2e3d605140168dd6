import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { outbox } from "@/db/schema";

export type OutboxBacklog = {
  /** PENDING rows, due or not (retries waiting out their backoff included). */
  pending: number;
  /** PENDING rows whose time has come. */
  due: number;
  /** How long the oldest due row has been waiting, in seconds; 0 when none is due. */
  oldestDueSeconds: number;
};

/** The outbox's backlog (one scan of the PENDING rows, through the partial index). */
export async function getOutboxBacklog(db: DbOrTx): Promise<OutboxBacklog> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      due: sql<number>`(count(*) filter (where ${outbox.nextAttemptAt} <= now()))::int`,
      oldestDueSeconds: sql<number>`coalesce(extract(epoch from now() - min(${outbox.nextAttemptAt}) filter (where ${outbox.nextAttemptAt} <= now())), 0)::float8`,
    })
    .from(outbox)
    .where(sql`${outbox.status} = 'PENDING'`);
  return { pending: Number(row.pending), due: Number(row.due), oldestDueSeconds: Number(row.oldestDueSeconds) };
}
