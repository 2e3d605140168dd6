import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { setAll, statement, variants } from "@/db/statements";
import { campaigns, donations, donors, type Campaign, type Donation, type DonationStatus } from "@/db/schema";

// The aggregates a donation's status feeds: its campaign's (and a peer-to-peer parent's) totals,
// match and tickets, and its donor's totals. Every change is a relative UPDATE on a locked row, so
// concurrent moves of other donations compose. Built once (db/statements.ts).

const ph = sql.placeholder;

/** Counted in raised/count and donor totals. */
export const counts = (s: DonationStatus) => s === "SUCCEEDED";
/** Holds its event tickets (released when it fails or is refunded). */
export const holdsTickets = (s: DonationStatus) => s === "PENDING" || s === "SUCCEEDED" || s === "DISPUTED";

const updateCampaignCounts = statement(campaigns, (db) =>
  db
    .update(campaigns)
    .set({
      raisedAmountCents: sql`${campaigns.raisedAmountCents} + ${ph("raised")}`,
      donationCount: sql`${campaigns.donationCount} + ${ph("count")}`,
      matchedAmountCents: sql`${campaigns.matchedAmountCents} - ${ph("unmatched")}`,
      ticketsSold: sql`${campaigns.ticketsSold} + ${ph("tickets")}`,
    })
    .where(eq(campaigns.id, ph("id")))
    .returning(),
);

const addCampaignMatch = statement(campaigns, (db) =>
  db
    .update(campaigns)
    .set({ matchedAmountCents: sql`${campaigns.matchedAmountCents} + ${ph("matched")}` })
    .where(eq(campaigns.id, ph("id")))
    .returning(),
);

const updateParentCounts = statement(campaigns, (db) =>
  db
    .update(campaigns)
    .set({
      raisedAmountCents: sql`${campaigns.raisedAmountCents} + ${ph("raised")}`,
      donationCount: sql`${campaigns.donationCount} + ${ph("count")}`,
    })
    .where(eq(campaigns.id, ph("id")))
    .returning(),
);

/**
 * The campaign's raised amount, count, match and tickets moved by a donation that starts (`sign`
 * 1) or stops (-1) counting or changes what it holds; its UPDATE takes the campaign's row lock and
 * answers the row.
 */
export function countOnCampaign(
  tx: Tx,
  donation: Donation,
  change: { sign: number; unmatched: number; ticketDelta: number },
): Promise<Campaign[]> {
  return updateCampaignCounts(tx, {
    id: donation.campaignId,
    raised: change.sign * donation.amount,
    count: change.sign,
    unmatched: change.unmatched,
    tickets: change.ticketDelta * (donation.tickets ?? 0),
  });
}

/** A match decided on the campaign's locked row, added to its matched total. */
export function addMatchToCampaign(tx: Tx, campaignId: string, matched: number): Promise<Campaign[]> {
  return addCampaignMatch(tx, { id: campaignId, matched });
}

/** A peer-to-peer page's gift that starts or stops counting, on its parent campaign. */
export function countOnParent(tx: Tx, parentId: string, donation: Donation, sign: number): Promise<Campaign[]> {
  return updateParentCounts(tx, { id: parentId, raised: sign * donation.amount, count: sign });
}

/**
 * Donor totals by delta on the locked row; first/last gift times are recomputed from the
 * donor's donations only when a gift stops counting (a delta cannot undo a min/max). A payment
 * that just succeeded also gives the donor the names and the language it was made with (starting
 * a donation never changes a donor: anyone can type anyone's email).
 */
export async function refreshDonorTotals(tx: Tx, donation: Donation, sign: number, paid: boolean) {
  const { donorId, amount, id: donationId } = donation;
  if (sign > 0) {
    const names = (["firstName", "lastName", "locale"] as const).filter((k) => paid && donation[k]);
    await addDonorGift(names.join(","))(tx, { donorId, amount, donationId, ...pick(donation, names) });
    return;
  }
  // Lock the donor first (as the UPDATE would: NO KEY UPDATE, which new donations' foreign keys
  // don't block): the recomputation's subqueries read the snapshot taken when the UPDATE starts,
  // so an UPDATE that waited for a concurrent gift's lock would miss that gift's success.
  await lockDonor(tx, { donorId });
  await removeDonorGift(tx, { donorId, amount });
}

const pick = <T extends object, K extends keyof T>(o: T, keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, o[k]]));

/** A gift that starts counting: the donor's totals, and (a payment just made) the names and language given with it. */
const addDonorGift = variants((columns: string) => {
  // Read in SQL, not through a JS Date, which would drop the timestamp's microseconds.
  const at = sql`(select ${donations.succeededAt} from ${donations} where ${donations.id} = ${ph("donationId")})`;
  return statement(donors, (db) =>
    db
      .update(donors)
      .set({
        totalGivenCents: sql`${donors.totalGivenCents} + ${ph("amount")}`,
        donationCount: sql`${donors.donationCount} + 1`,
        firstDonationAt: sql`least(${donors.firstDonationAt}, ${at})`,
        lastDonationAt: sql`greatest(${donors.lastDonationAt}, ${at})`,
        ...setAll(columns ? columns.split(",") : []),
        updatedAt: sql`now()`,
      })
      .where(eq(donors.id, ph("donorId"))),
  );
});

const lockDonor = statement(donors, (db) =>
  db
    .select({ id: donors.id })
    .from(donors)
    .where(eq(donors.id, ph("donorId")))
    .for("no key update"),
);

const counted = sql`from ${donations} where ${donations.donorId} = ${ph("donorId")} and ${donations.status} = 'SUCCEEDED'`;
const removeDonorGift = statement(donors, (db) =>
  db
    .update(donors)
    .set({
      totalGivenCents: sql`${donors.totalGivenCents} - ${ph("amount")}`,
      donationCount: sql`${donors.donationCount} - 1`,
      firstDonationAt: sql`(select min(${donations.succeededAt}) ${counted})`,
      lastDonationAt: sql`(select max(${donations.succeededAt}) ${counted})`,
      updatedAt: sql`now()`,
    })
    .where(eq(donors.id, ph("donorId"))),
);
