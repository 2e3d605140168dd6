import { sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db";
import { sqlStatement } from "@/db/statements";
import { campaignDailyTotals, donations } from "@/db/schema";

const donationId = sql.placeholder("donationId");

/**
 * The day a gift counts on: the date of its `succeeded_at` in its organization's time zone. One
 * expression for every writer and reader of `campaign_daily_totals`.
 */
export const localDay = (succeededAt: SQL | typeof donations.succeededAt, orgId: SQL | typeof donations.orgId): SQL =>
  sql`(${succeededAt} at time zone (select o.time_zone from organizations o where o.id = ${orgId}))::date`;

// An UPDATE, not an upsert: Postgres checks the CHECK constraint (non-negative) on the row an
// INSERT proposes before ON CONFLICT turns it into an update, so a negative insert always fails.
const removeFromDay = sqlStatement(
  sql`
    update ${campaignDailyTotals} set
      raised_cents = ${campaignDailyTotals.raisedCents} - ${donations.amount},
      donation_count = ${campaignDailyTotals.donationCount} - 1
    from ${donations}
    where ${donations.id} = ${donationId}
      and ${campaignDailyTotals.campaignId} = ${donations.campaignId}
      and ${campaignDailyTotals.day} = ${localDay(donations.succeededAt, donations.orgId)}`,
);

const addToDay = sqlStatement(
  sql`
    insert into ${campaignDailyTotals} (org_id, campaign_id, day, raised_cents, donation_count)
    select ${donations.orgId}, ${donations.campaignId}, ${localDay(donations.succeededAt, donations.orgId)},
           ${donations.amount}, 1
    from ${donations} where ${donations.id} = ${donationId}
    on conflict (campaign_id, day) do update set
      raised_cents = ${campaignDailyTotals.raisedCents} + excluded.raised_cents,
      donation_count = ${campaignDailyTotals.donationCount} + excluded.donation_count`,
);

/**
 * Adds (`sign` 1) or removes (-1) a donation that starts or stops counting to its campaign's
 * total for the local day of its `succeeded_at` (its organization's time zone), which the reports read (`campaign_daily_totals`).
 * Call it inside the transaction that moves the donation, after its row holds the new status and
 * `succeeded_at`, while holding its campaign's row lock: that lock serializes every change to the
 * campaign's days, as it does for the campaign's own `raisedAmountCents`.
 */
export async function addToDailyTotals(tx: Tx, id: string, sign: 1 | -1): Promise<void> {
  await (sign < 0 ? removeFromDay : addToDay)(tx, { donationId: id });
}

/**
 * Recomputes an organization's per-day totals from its gifts, after its time zone changed (its
 * days start at other instants). Runs in the caller's transaction, which has already written the
 * new zone: the organization's campaigns are locked first, in id order, so no gift of theirs
 * moves (and adds to a day) between the delete and the insert.
 */
export async function rebuildDailyTotals(tx: Tx, orgId: string): Promise<void> {
  await tx.execute(sql`select id from campaigns where org_id = ${orgId} order by id for update`);
  await tx.execute(sql`delete from ${campaignDailyTotals} where org_id = ${orgId}`);
  await tx.execute(sql`
    insert into ${campaignDailyTotals} (org_id, campaign_id, day, raised_cents, donation_count)
    select org_id, campaign_id, ${localDay(sql`succeeded_at`, sql`org_id`)}, sum(amount), count(*)
    from ${donations} where org_id = ${orgId} and status = 'SUCCEEDED'
    group by 1, 2, 3`);
}
