ALTER TYPE "public"."recurring_interval" ADD VALUE 'WEEK' BEFORE 'MONTH';--> statement-breakpoint
ALTER TYPE "public"."recurring_interval" ADD VALUE 'QUARTER' BEFORE 'YEAR';