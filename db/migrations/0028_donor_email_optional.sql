ALTER TABLE "donations" ALTER COLUMN "email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "donors" ALTER COLUMN "email" DROP NOT NULL;