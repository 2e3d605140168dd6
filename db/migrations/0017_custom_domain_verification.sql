-- Custom domains are served only once a TXT record proves the organization controls them: a
-- status, the record's value and when it was verified. Several organizations may claim a domain;
-- the unique index now holds for VERIFIED ones only. And donor sessions kept server-side, so
-- signing out revokes the cookie.
CREATE TYPE "public"."custom_domain_status" AS ENUM('PENDING', 'VERIFIED');--> statement-breakpoint
CREATE TABLE "donor_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"donor_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "organizations_custom_domain_key";--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "custom_domain_status" "custom_domain_status";--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "custom_domain_token" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "custom_domain_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "donor_sessions" ADD CONSTRAINT "donor_sessions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donor_sessions" ADD CONSTRAINT "donor_sessions_donor_id_donors_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."donors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donor_sessions_donor_idx" ON "donor_sessions" USING btree ("donor_id");--> statement-breakpoint
CREATE INDEX "donor_sessions_expires_idx" ON "donor_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_custom_domain_key" ON "organizations" USING btree ("custom_domain") WHERE "organizations"."custom_domain_status" = 'VERIFIED';
