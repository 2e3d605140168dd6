-- The card-testing defence read every PENDING or FAILED donation of a client in its window and
-- looked for a failure event on each: on a client with many open checkouts, a scan per new
-- donation. The time of the counted failure now sits on the donation, indexed per client.
ALTER TABLE "donations" ADD COLUMN "payment_failed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "donations" d SET "payment_failed_at" = f.at
FROM (
  SELECT e."donation_id", max(e."created_at") AS at
  FROM "donation_events" e
  WHERE e."type" IN ('payment_intent.payment_failed', 'payment_intent.canceled') AND e."data"->>'from' = 'PENDING'
  GROUP BY e."donation_id"
) f
WHERE f."donation_id" = d."id" AND d."client_ip" IS NOT NULL;--> statement-breakpoint
DROP INDEX "donations_client_failed_idx";--> statement-breakpoint
CREATE INDEX "donations_client_payment_failed_idx" ON "donations" USING btree ("client_ip","payment_failed_at") WHERE "donations"."payment_failed_at" is not null and "donations"."client_ip" is not null;
