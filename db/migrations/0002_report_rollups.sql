CREATE TABLE "campaign_daily_totals" (
	"org_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"day" date NOT NULL,
	"raised_cents" bigint DEFAULT 0 NOT NULL,
	"donation_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_daily_totals_campaign_id_day_pk" PRIMARY KEY("campaign_id","day"),
	CONSTRAINT "campaign_daily_totals_non_negative" CHECK ("campaign_daily_totals"."raised_cents" >= 0 and "campaign_daily_totals"."donation_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "campaign_daily_totals" ADD CONSTRAINT "campaign_daily_totals_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_daily_totals" ADD CONSTRAINT "campaign_daily_totals_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_daily_totals_org_day_idx" ON "campaign_daily_totals" USING btree ("org_id","day");