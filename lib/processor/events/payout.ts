import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { organizations, payouts } from "@/db/schema";
import { emitPayoutEvent } from "@/lib/webhooks-out/emit";
import type { EventHandler } from "./types";

/** `payout.paid` / `payout.failed` from a connected account: the organization's payout record. */
export const payoutChanged: EventHandler<Stripe.PayoutPaidEvent | Stripe.PayoutFailedEvent> = {
  async apply(tx, event) {
    const payout = event.data.object;
    if (!event.account) return "ignored";
    const [org] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.processorAccountId, event.account));
    if (!org) return "ignored";
    const values = {
      amount: payout.amount,
      currency: payout.currency,
      status: payout.status,
      arrivalDate: payout.arrival_date ? new Date(payout.arrival_date * 1000) : null,
      failureMessage: payout.failure_message ?? null,
    };
    const [row] = await tx
      .insert(payouts)
      .values({ id: payout.id, orgId: org.id, ...values })
      .onConflictDoUpdate({ target: payouts.id, set: { ...values, updatedAt: sql`now()` } })
      .returning();
    await emitPayoutEvent(tx, event.type, row);
    return "applied";
  },
};
