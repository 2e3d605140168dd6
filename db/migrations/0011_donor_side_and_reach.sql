CREATE TABLE "donor_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"donor_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text
);
--> statement-breakpoint
CREATE TABLE "donor_sign_in_links" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"donor_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconcile_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"listed_from" timestamp with time zone,
	"checkpoint" timestamp with time zone,
	"events_listed" integer DEFAULT 0 NOT NULL,
	"events_applied" integer DEFAULT 0 NOT NULL,
	"pending_checked" integer DEFAULT 0 NOT NULL,
	"pending_settled" integer DEFAULT 0 NOT NULL,
	"repairs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "sandbox_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account_id" text,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "statement_deliveries" (
	"run_id" text NOT NULL,
	"org_id" text NOT NULL,
	"year" integer NOT NULL,
	"donor_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "statement_deliveries_run_id_donor_id_pk" PRIMARY KEY("run_id","donor_id")
);
--> statement-breakpoint
CREATE TABLE "statement_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"year" integer NOT NULL,
	"resend" boolean DEFAULT false NOT NULL,
	"requested_by" text,
	"queued" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "receipt_statement" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "default_locale" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "donor_erasure_needs_approval" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "donors" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "canceled_by" text;--> statement-breakpoint
ALTER TABLE "donor_requests" ADD CONSTRAINT "donor_requests_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donor_requests" ADD CONSTRAINT "donor_requests_donor_id_donors_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."donors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donor_requests" ADD CONSTRAINT "donor_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donor_sign_in_links" ADD CONSTRAINT "donor_sign_in_links_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "donor_sign_in_links" ADD CONSTRAINT "donor_sign_in_links_donor_id_donors_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."donors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_deliveries" ADD CONSTRAINT "statement_deliveries_run_id_statement_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."statement_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_deliveries" ADD CONSTRAINT "statement_deliveries_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_deliveries" ADD CONSTRAINT "statement_deliveries_donor_id_donors_id_fk" FOREIGN KEY ("donor_id") REFERENCES "public"."donors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_runs" ADD CONSTRAINT "statement_runs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_runs" ADD CONSTRAINT "statement_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "donor_requests_org_status_idx" ON "donor_requests" USING btree ("org_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "donor_sign_in_links_token_key" ON "donor_sign_in_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "donor_sign_in_links_expires_idx" ON "donor_sign_in_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "reconcile_runs_started_idx" ON "reconcile_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "sandbox_events_created_idx" ON "sandbox_events" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "statement_deliveries_org_year_donor_idx" ON "statement_deliveries" USING btree ("org_id","year","donor_id");--> statement-breakpoint
CREATE INDEX "statement_runs_org_year_idx" ON "statement_runs" USING btree ("org_id","year","created_at");