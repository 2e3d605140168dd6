import { and, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, donations, type Donation } from "@/db/schema";
import { offsetPage, type OffsetPage } from "./rows";

// What a signed-in donor sees of their own records. Every query is bound to the organization
// and the donor together: the donor account never lists anyone else's rows.

/** The statuses of the donor's own gifts that the account lists (a PENDING or FAILED donation was never a gift). */
export const DONOR_GIFT_STATUSES = ["SUCCEEDED", "REFUNDED", "DISPUTED"] as const;

/** One of the donor's gifts, with its campaign's title and slug (for the thank-you page's receipt link). */
export type DonorDonationRow = { donation: Donation; campaignTitle: string; campaignSlug: string };

const ownGifts = (orgId: string, donorId: string) =>
  and(eq(donations.orgId, orgId), eq(donations.donorId, donorId), inArray(donations.status, [...DONOR_GIFT_STATUSES]));

/** Whether `donationId` is one of the donor's own gifts to the organization (one the account lists). */
export async function isOwnGift(db: DbOrTx, orgId: string, donorId: string, donationId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: donations.id })
    .from(donations)
    .where(and(eq(donations.id, donationId), ownGifts(orgId, donorId)))
    .limit(1);
  return row !== undefined;
}

/** A page of a donor's own gifts to one organization (SUCCEEDED, REFUNDED, DISPUTED), newest first. */
export async function listDonorDonations(
  db: DbOrTx,
  orgId: string,
  donorId: string,
  page: OffsetPage,
): Promise<{ rows: DonorDonationRow[]; total: number }> {
  const where = ownGifts(orgId, donorId);
  const query = db
    .select({ donation: donations, campaignTitle: campaigns.title, campaignSlug: campaigns.slug })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(where)
    .orderBy(desc(sql`coalesce(${donations.succeededAt}, ${donations.createdAt})`), desc(donations.id));
  return offsetPage(db, query.$dynamic(), { table: donations, where }, page);
}

/**
 * The calendar years (of the organization's time zone, as statements count them) in which a
 * donor had a SUCCEEDED gift to the organization, newest first: their statements.
 */
export async function listDonorGiftYears(db: DbOrTx, orgId: string, donorId: string): Promise<number[]> {
  const year = sql<number>`extract(year from ${donations.succeededAt} at time zone (select o.time_zone from organizations o where o.id = ${orgId}))::int`;
  const rows = await db
    .selectDistinct({ year })
    .from(donations)
    .where(
      and(eq(donations.orgId, orgId), eq(donations.donorId, donorId), eq(donations.status, "SUCCEEDED"), isNotNull(donations.succeededAt)),
    );
  return rows
    .filter((r) => r.year !== null)
    .map((r) => Number(r.year))
    .sort((a, b) => b - a);
}
