import { and, eq, or, type SQL } from "drizzle-orm";
import type { Tx } from "@/db";
import { donations, type Donation } from "@/db/schema";

/** The donation an event is about, locked for the rest of the transaction; undefined if not ours. */
export async function lockDonation(
  tx: Tx,
  by: { paymentIntentId?: string | null; donationId?: string | null; chargeId?: string | null },
): Promise<Donation | undefined> {
  const matches: SQL[] = [];
  if (by.paymentIntentId) matches.push(eq(donations.paymentIntentId, by.paymentIntentId));
  if (by.donationId) matches.push(eq(donations.id, by.donationId));
  if (by.chargeId) matches.push(eq(donations.chargeId, by.chargeId));
  if (matches.length === 0) return undefined;
  const [d] = await tx
    .select()
    .from(donations)
    .where(or(...matches))
    .limit(1)
    .for("update");
  return d;
}

/** The first donation of a subscription (not a renewal), locked. */
export async function lockInitialDonationOfSubscription(tx: Tx, subscriptionId: string): Promise<Donation | undefined> {
  const [d] = await tx
    .select()
    .from(donations)
    .where(and(eq(donations.subscriptionId, subscriptionId), eq(donations.isRenewal, false)))
    .limit(1)
    .for("update");
  return d;
}
