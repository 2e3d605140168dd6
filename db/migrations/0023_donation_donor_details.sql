CREATE TABLE "donation_donor_details" (
	"donation_id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"email_opt_in" boolean DEFAULT false NOT NULL,
	"address" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "donation_donor_details" ADD CONSTRAINT "donation_donor_details_donation_id_donations_id_fk" FOREIGN KEY ("donation_id") REFERENCES "public"."donations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donation_donor_details" ADD CONSTRAINT "donation_donor_details_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;