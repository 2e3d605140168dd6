-- Reports (db/queries/reports.ts). Custom because drizzle-kit cannot express INCLUDE; these
-- indexes are therefore not declared in db/schema (see the note in db/schema/reports.ts).

-- Counted gifts of an organization by the time the money came in, covering what the reports
-- read from them (partial days at a window's edges, distinct donors, per-campaign donors).
CREATE INDEX "donations_report_succeeded_idx" ON "donations" USING btree ("org_id", "succeeded_at")
  INCLUDE ("amount", "donor_id", "campaign_id") WHERE "status" = 'SUCCEEDED';
--> statement-breakpoint
-- Refunds and disputes, by where they count in a window (when the money came in, else creation).
-- The expression's columns are included too: an index-only scan needs them as plain columns.
CREATE INDEX "donations_report_reversed_idx" ON "donations" USING btree ("org_id", "status", (coalesce("succeeded_at", "created_at")))
  INCLUDE ("amount", "succeeded_at", "created_at") WHERE "status" IN ('REFUNDED', 'DISPUTED');
--> statement-breakpoint
-- Counted gifts by campaign and donor: distinct donors per campaign without sorting a million rows.
CREATE INDEX "donations_report_campaign_donor_idx" ON "donations" USING btree ("org_id", "campaign_id", "donor_id")
  INCLUDE ("succeeded_at") WHERE "status" = 'SUCCEEDED';
--> statement-breakpoint
-- One donor's counted gifts by time: "has this donor a gift in the window?" in one probe.
CREATE INDEX "donations_report_donor_idx" ON "donations" USING btree ("donor_id", "succeeded_at") WHERE "status" = 'SUCCEEDED';
--> statement-breakpoint
-- New donors in a window.
CREATE INDEX "donors_report_first_donation_idx" ON "donors" USING btree ("org_id", "first_donation_at");
--> statement-breakpoint
-- The per-day totals start equal to the donations already there; moveDonation keeps them so.
INSERT INTO "campaign_daily_totals" ("org_id", "campaign_id", "day", "raised_cents", "donation_count")
SELECT "org_id", "campaign_id", ("succeeded_at" AT TIME ZONE 'UTC')::date, sum("amount"), count(*)
FROM "donations" WHERE "status" = 'SUCCEEDED' AND "succeeded_at" IS NOT NULL
GROUP BY 1, 2, 3
ON CONFLICT ("campaign_id", "day") DO UPDATE
  SET "raised_cents" = excluded."raised_cents", "donation_count" = excluded."donation_count";
