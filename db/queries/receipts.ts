import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donations, receiptCounters, type Donation } from "@/db/schema";

/**
 * The next receipt sequence number of an organization's year. The upsert takes the counter row's
 * lock until the caller's transaction ends: concurrent callers wait for it and read the number it
 * committed, and a rollback returns the number, so the numbers handed out are gapless.
 */
export async function takeReceiptSeq(tx: DbOrTx, orgId: string, year: number): Promise<number> {
  const [row] = await tx
    .insert(receiptCounters)
    .values({ orgId, year, lastSeq: 1 })
    .onConflictDoUpdate({ target: [receiptCounters.orgId, receiptCounters.year], set: { lastSeq: sql`${receiptCounters.lastSeq} + 1` } })
    .returning({ seq: receiptCounters.lastSeq });
  return row.seq;
}

export async function setReceiptNumber(tx: DbOrTx, donationId: string, receiptNumber: string): Promise<Donation> {
  const [row] = await tx.update(donations).set({ receiptNumber }).where(eq(donations.id, donationId)).returning();
  return row;
}
