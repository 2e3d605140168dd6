CREATE TYPE "public"."ticket_status" AS ENUM('VALID', 'VOID');--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"org_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"donation_id" text NOT NULL,
	"tier_id" text NOT NULL,
	"tier_name" text NOT NULL,
	"seat" integer NOT NULL,
	"attendee_name" text NOT NULL,
	"attendee_email" text,
	"status" "ticket_status" DEFAULT 'VALID' NOT NULL,
	"void_reason" text,
	"checked_in_at" timestamp with time zone,
	"checked_in_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "ticket_tiers" jsonb;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "ticket_order" jsonb;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_code_key" ON "tickets" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_donation_seat_key" ON "tickets" USING btree ("donation_id","seat");--> statement-breakpoint
CREATE INDEX "tickets_campaign_idx" ON "tickets" USING btree ("campaign_id","attendee_name");--> statement-breakpoint
CREATE INDEX "tickets_campaign_checked_idx" ON "tickets" USING btree ("campaign_id","tier_id") WHERE "tickets"."checked_in_at" is not null;