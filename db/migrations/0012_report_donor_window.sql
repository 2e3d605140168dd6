-- Reports (db/queries/reports.ts): distinct donors in a window from the donors' first and last
-- counted gift times, as one index-only range scan (donors whose last gift is at or after the
-- window's start), instead of a scan of the organization's donors. Custom because drizzle-kit
-- cannot express INCLUDE (see the note in db/schema/reports.ts).
CREATE INDEX "donors_report_window_idx" ON "donors" USING btree ("org_id", "last_donation_at") INCLUDE ("first_donation_at");
