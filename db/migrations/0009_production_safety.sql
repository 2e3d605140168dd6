ALTER TABLE "campaigns" ADD COLUMN "max_tickets_per_order" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "client_ip" text;--> statement-breakpoint
CREATE INDEX "donations_client_failed_idx" ON "donations" USING btree ("client_ip","updated_at") WHERE "donations"."status" = 'FAILED' and "donations"."client_ip" is not null;--> statement-breakpoint
CREATE INDEX "donations_pending_created_idx" ON "donations" USING btree ("created_at") WHERE "donations"."status" = 'PENDING';