CREATE TABLE "fundraiser_sign_ups" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"parent_campaign_id" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"title" text,
	"story" text,
	"goal_amount_cents" bigint,
	"team_id" text,
	"team_name" text,
	"locale" text,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"campaign_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "allow_supporter_pages" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "supporter_pages_need_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "allow_teams" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "is_team" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "fundraiser_donor_id" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "fundraiser_first_name" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "fundraiser_last_name" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "moderation" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "fundraiser_emails" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "fundraiser_sign_ups" ADD CONSTRAINT "fundraiser_sign_ups_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fundraiser_sign_ups" ADD CONSTRAINT "fundraiser_sign_ups_parent_campaign_id_campaigns_id_fk" FOREIGN KEY ("parent_campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fundraiser_sign_ups_token_key" ON "fundraiser_sign_ups" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "fundraiser_sign_ups_expires_idx" ON "fundraiser_sign_ups" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_team_id_campaigns_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaigns_team_idx" ON "campaigns" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "campaigns_fundraiser_idx" ON "campaigns" USING btree ("fundraiser_donor_id");--> statement-breakpoint
CREATE INDEX "campaigns_parent_raised_idx" ON "campaigns" USING btree ("parent_campaign_id","is_team","raised_amount_cents" DESC NULLS LAST,"id");