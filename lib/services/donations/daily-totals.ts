import { sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { sqlStatement } from "@/db/statements";
import { campaignDailyTotals, donations } from "@/db/schema";

const donationId = sql.placeholder("donationId");

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
      and ${campaignDailyTotals.day} = (${donations.succeededAt} at time zone 'UTC')::date`,
);

const addToDay = sqlStatement(
  sql`
    insert into ${campaignDailyTotals} (org_id, campaign_id, day, raised_cents, donation_count)
    select ${donations.orgId}, ${donations.campaignId}, (${donations.succeededAt} at time zone 'UTC')::date,
           ${donations.amount}, 1
    from ${donations} where ${donations.id} = ${donationId}
    on conflict (campaign_id, day) do update set
      raised_cents = ${campaignDailyTotals.raisedCents} + excluded.raised_cents,
      donation_count = ${campaignDailyTotals.donationCount} + excluded.donation_count`,
);

/**
 * Adds (`sign` 1) or removes (-1) a donation that starts or stops counting to its campaign's
 * total for the UTC day of its `succeeded_at`, which the reports read (`campaign_daily_totals`).
 * Call it inside the transaction that moves the donation, after its row holds the new status and
 * `succeeded_at`, while holding its campaign's row lock: that lock serializes every change to the
 * campaign's days, as it does for the campaign's own `raisedAmountCents`.
 */
export async function addToDailyTotals(tx: Tx, id: string, sign: 1 | -1): Promise<void> {
  await (sign < 0 ? removeFromDay : addToDay)(tx, { donationId: id });
}
