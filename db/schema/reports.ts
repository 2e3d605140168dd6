import { sql } from "drizzle-orm";
import { bigint, check, date, index, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { belongsTo } from "./columns";
import { campaigns } from "./campaigns";
import { organizations } from "./organizations";

/**
 * Raised and count of each campaign's SUCCEEDED donations per UTC day of `succeeded_at`: the
 * reports read whole days from here instead of scanning a million donations. Maintained only by
 * `moveDonation`, in the transaction that moves the donation and under its campaign's row lock,
 * by the same deltas as the campaign's own `raisedAmountCents`/`donationCount`; so, like them, it
 * equals what the donations table says at every commit (tests/helpers/invariants.ts checks it).
 * A row whose gifts all stopped counting stays, at zero.
 *
 * The covering indexes on `donations` that the reports also use (INCLUDE columns, which
 * drizzle-kit cannot express) live in the custom migration `0003_report_indexes.sql`, and the
 * donors' window index (distinct donors in a window) in `0012_report_donor_window.sql`.
 */
export const campaignDailyTotals = pgTable(
  "campaign_daily_totals",
  {
    orgId: belongsTo(() => organizations.id),
    campaignId: belongsTo(() => campaigns.id),
    /** The UTC calendar day of the donations' `succeeded_at`. */
    day: date({ mode: "string" }).notNull(),
    raisedCents: bigint({ mode: "number" }).notNull().default(0),
    donationCount: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.day] }),
    index("campaign_daily_totals_org_day_idx").on(t.orgId, t.day),
    check("campaign_daily_totals_non_negative", sql`${t.raisedCents} >= 0 and ${t.donationCount} >= 0`),
  ],
);

export type CampaignDailyTotal = typeof campaignDailyTotals.$inferSelect;
