CREATE TYPE "public"."import_preset" AS ENUM('goodfund', 'givebutter', 'donorbox', 'stripe');--> statement-breakpoint
CREATE TYPE "public"."import_status" AS ENUM('READY', 'FAILED', 'IMPORTING', 'DONE', 'UNDONE');--> statement-breakpoint
CREATE TABLE "import_rows" (
	"import_id" text NOT NULL,
	"row" integer NOT NULL,
	"data" jsonb NOT NULL,
	"duplicate" boolean DEFAULT false NOT NULL,
	CONSTRAINT "import_rows_import_id_row_pk" PRIMARY KEY("import_id","row")
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"preset" "import_preset" NOT NULL,
	"status" "import_status" NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"valid" integer DEFAULT 0 NOT NULL,
	"invalid" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"preview" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cursor" integer DEFAULT 0 NOT NULL,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"committed_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "donations" ADD COLUMN "import_id" text;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "imports_org_created_idx" ON "imports" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE INDEX "imports_status_idx" ON "imports" USING btree ("status","committed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "donations_org_external_id_key" ON "donations" USING btree ("org_id","external_id") WHERE "donations"."external_id" is not null;--> statement-breakpoint
CREATE INDEX "donations_import_idx" ON "donations" USING btree ("import_id") WHERE "donations"."import_id" is not null;