CREATE TABLE "plan_invoice_failures" (
	"invoice_id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"org_id" text NOT NULL,
	"amount_due_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"attempt_count" integer DEFAULT 1 NOT NULL,
	"next_retry_at" timestamp with time zone,
	"failure_message" text,
	"failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recovered_at" timestamp with time zone,
	"lost_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reminder_opt_outs" (
	"org_id" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminder_opt_outs_org_id_email_pk" PRIMARY KEY("org_id","email")
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "monthly_upsell" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "remind_if_unfinished" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "unfinished_reminder_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "upsell" text;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "past_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "next_retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "card_brand" text;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "card_last4" text;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "card_exp_month" integer;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "card_exp_year" integer;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "card_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recurring_plans" ADD COLUMN "card_expiry_notice_for" text;--> statement-breakpoint
ALTER TABLE "plan_invoice_failures" ADD CONSTRAINT "plan_invoice_failures_plan_id_recurring_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."recurring_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_invoice_failures" ADD CONSTRAINT "plan_invoice_failures_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_opt_outs" ADD CONSTRAINT "reminder_opt_outs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_invoice_failures_plan_idx" ON "plan_invoice_failures" USING btree ("plan_id");--> statement-breakpoint
CREATE INDEX "plan_invoice_failures_org_idx" ON "plan_invoice_failures" USING btree ("org_id","failed_at");--> statement-breakpoint
CREATE INDEX "donations_unfinished_reminder_idx" ON "donations" USING btree ("created_at") WHERE "donations"."remind_if_unfinished" and "donations"."unfinished_reminder_at" is null;