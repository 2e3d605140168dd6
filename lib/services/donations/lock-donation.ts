import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { Tx } from "@/db";
import { statement, variants } from "@/db/statements";
import { donations, type Donation } from "@/db/schema";

type By = { paymentIntentId?: string | null; donationId?: string | null; chargeId?: string | null };

// One statement per combination of the identifiers an event carries (bit 1: payment intent,
// 2: donation, 4: charge), each built once.
const lockBy = variants((mask: number) => {
  return statement(donations, (db) => {
    const matches: SQL[] = [];
    if (mask & 1) matches.push(eq(donations.paymentIntentId, sql.placeholder("paymentIntentId")));
    if (mask & 2) matches.push(eq(donations.id, sql.placeholder("donationId")));
    if (mask & 4) matches.push(eq(donations.chargeId, sql.placeholder("chargeId")));
    return db
      .select()
      .from(donations)
      .where(or(...matches))
      .limit(1)
      .for("update");
  });
});

/** The donation an event is about, locked for the rest of the transaction; undefined if not ours. */
export async function lockDonation(tx: Tx, by: By): Promise<Donation | undefined> {
  const mask = (by.paymentIntentId ? 1 : 0) | (by.donationId ? 2 : 0) | (by.chargeId ? 4 : 0);
  if (mask === 0) return undefined;
  const [d] = await lockBy(mask)(tx, by);
  return d;
}

const lockInitial = statement(donations, (db) =>
  db
    .select()
    .from(donations)
    .where(and(eq(donations.subscriptionId, sql.placeholder("subscriptionId")), eq(donations.isRenewal, false)))
    .limit(1)
    .for("update"),
);

/** The first donation of a subscription (not a renewal), locked. */
export async function lockInitialDonationOfSubscription(tx: Tx, subscriptionId: string): Promise<Donation | undefined> {
  const [d] = await lockInitial(tx, { subscriptionId });
  return d;
}
