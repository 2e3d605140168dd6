CREATE TYPE "public"."receipt_profile" AS ENUM('US', 'CA', 'UK', 'GENERIC');--> statement-breakpoint
CREATE TYPE "public"."donation_method" AS ENUM('CARD', 'CASH', 'CHEQUE', 'BANK_TRANSFER', 'DAF', 'STOCK', 'IN_KIND', 'OTHER');--> statement-breakpoint
CREATE TYPE "public"."donation_source" AS ENUM('ONLINE', 'OFFLINE', 'IMPORT');--> statement-breakpoint
ALTER TYPE "public"."donation_status" ADD VALUE 'VOIDED';--> statement-breakpoint
CREATE TABLE "receipt_counters" (
	"org_id" text NOT NULL,
	"year" integer NOT NULL,
	"last_seq" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "receipt_counters_org_id_year_pk" PRIMARY KEY("org_id","year")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "receipt_profile" "receipt_profile" DEFAULT 'US' NOT NULL;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "receipt_signatory" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "source" "donation_source" DEFAULT 'ONLINE' NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "method" "donation_method" DEFAULT 'CARD' NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "advantage_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "receipt_number" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "receipt_address" jsonb;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "gift_aid" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "gift_aid_declaration" jsonb;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "receipt_counters" ADD CONSTRAINT "receipt_counters_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "donations_org_receipt_number_key" ON "donations" USING btree ("org_id","receipt_number") WHERE "donations"."receipt_number" is not null;--> statement-breakpoint
-- Gifts that succeeded before receipt numbers existed get theirs now, in order of success per
-- organization and UTC calendar year, and each year's counter starts after the last one given.
WITH numbered AS (
	SELECT "id", "org_id", extract(year FROM "succeeded_at" AT TIME ZONE 'UTC')::integer AS "year",
	       row_number() OVER (PARTITION BY "org_id", extract(year FROM "succeeded_at" AT TIME ZONE 'UTC') ORDER BY "succeeded_at", "id") AS "seq"
	FROM "donations" WHERE "succeeded_at" IS NOT NULL AND "status" IN ('SUCCEEDED', 'DISPUTED', 'REFUNDED')
), given AS (
	UPDATE "donations" d SET "receipt_number" = n."year"::text || '-' || lpad(n."seq"::text, 6, '0')
	FROM numbered n WHERE d."id" = n."id"
	RETURNING n."org_id", n."year", n."seq"
)
INSERT INTO "receipt_counters" ("org_id", "year", "last_seq")
SELECT "org_id", "year", max("seq") FROM given GROUP BY "org_id", "year";
