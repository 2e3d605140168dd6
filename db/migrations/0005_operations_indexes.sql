CREATE INDEX "donations_recurring_plan_idx" ON "donations" USING btree ("recurring_plan_id") WHERE "donations"."recurring_plan_id" is not null;--> statement-breakpoint
CREATE INDEX "donors_org_total_idx" ON "donors" USING btree ("org_id","total_given_cents","id");--> statement-breakpoint
CREATE INDEX "donors_org_created_idx" ON "donors" USING btree ("org_id","created_at","id");