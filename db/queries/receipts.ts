import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import { sqlStatement } from "@/db/statements";
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

/**
 * takeReceiptSeq and setReceiptNumber in one statement, for the gift `donationId` succeeding in
 * this transaction, when its campaign has no team or parent page (whose locks come before the
 * counter's; for those issueReceiptNumber numbers it after them). The year is the UTC year of
 * its `succeeded_at`, or of the transaction's start, which `succeeded_at` takes when it succeeds
 * (so the statement may run before or after the gift's own UPDATE). Answers the number taken,
 * or no row.
 */
export const numberOnOwnCampaign = sqlStatement<{ donationId: string }>(sql`
  with taken as (
    insert into ${receiptCounters} (org_id, year, last_seq)
    select d.org_id, extract(year from (coalesce(d.succeeded_at, now()) at time zone 'UTC'))::int, 1
    from ${donations} d join ${campaigns} k on k.id = d.campaign_id
    where d.id = ${sql.placeholder("donationId")} and d.receipt_number is null and k.parent_campaign_id is null and k.team_id is null
    on conflict (org_id, year) do update set last_seq = ${receiptCounters}.last_seq + 1
    returning year, last_seq
  )
  update ${donations} set receipt_number =
    taken.year || '-' || case when taken.last_seq >= 1000000 then taken.last_seq::text else lpad(taken.last_seq::text, 6, '0') end
  from taken where ${donations}.id = ${sql.placeholder("donationId")}
  returning ${donations}.receipt_number`);

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
