import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, donations, donors, receiptCounters, type Donation } from "@/db/schema";

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

/** A gift with what its receipt prints: the campaign's title and the donor's record. */
export async function getReceiptRow(db: DbOrTx, donationId: string) {
  const [row] = await db
    .select({ donation: donations, campaignTitle: campaigns.title, donor: donors })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(donors, eq(donors.id, donations.donorId))
    .where(eq(donations.id, donationId))
    .limit(1);
  return row;
}

/** SUCCEEDED gifts with a Gift Aid declaration, received in [from, to), oldest first. */
export async function listGiftAidGifts(db: DbOrTx, orgId: string, from: Date, to: Date): Promise<Donation[]> {
  return db
    .select()
    .from(donations)
    .where(
      and(
        eq(donations.orgId, orgId),
        eq(donations.status, "SUCCEEDED"),
        eq(donations.giftAid, true),
        gte(donations.succeededAt, from),
        lt(donations.succeededAt, to),
      ),
    )
    .orderBy(asc(donations.succeededAt), asc(donations.id));
}
