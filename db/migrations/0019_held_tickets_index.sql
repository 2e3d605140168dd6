-- A client may hold at most two orders' worth of a campaign's seats unpaid: its holds are counted
-- on every ticket order, from this small index of the PENDING ones.
CREATE INDEX "donations_client_held_tickets_idx" ON "donations" USING btree ("campaign_id","client_ip") WHERE "donations"."status" = 'PENDING' and "donations"."tickets" is not null and "donations"."client_ip" is not null;
