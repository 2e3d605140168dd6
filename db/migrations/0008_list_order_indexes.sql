-- Newest-first lists order by `created_at DESC, id DESC`, which in Postgres means NULLS FIRST;
-- drizzle's `.desc()` had created these indexes `DESC NULLS LAST`, an order Postgres cannot read
-- them in (0007 explains the cost for donations). The schema now declares `.desc().nullsFirst()`:
-- the small tables' indexes are rebuilt in that order, and the donations index that 0007 added by
-- hand is adopted under its name, so the old one, which only cost writes, goes.
DROP INDEX IF EXISTS "donations_org_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "campaigns_org_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "payouts_org_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "recurring_plans_org_created_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "webhook_deliveries_endpoint_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "webhook_events_org_created_idx";--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "donations_org_created_order_idx" ON "donations" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "campaigns_org_created_idx" ON "campaigns" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payouts_org_idx" ON "payouts" USING btree ("org_id","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "recurring_plans_org_created_idx" ON "recurring_plans" USING btree ("org_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "webhook_events_org_created_idx" ON "webhook_events" USING btree ("org_id","created_at" DESC NULLS FIRST);