ALTER TABLE "donations" ADD COLUMN "locale" text;--> statement-breakpoint
ALTER TABLE "donors" ADD COLUMN "locale" text;