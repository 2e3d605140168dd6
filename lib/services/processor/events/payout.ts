import type Stripe from "stripe";
import { recordPayout } from "@/lib/services/payouts/record-payout";
import type { EventHandler } from "./types";

/** `payout.paid` / `payout.failed` from a connected account (see recordPayout); without an account it is not ours. */
export const payoutChanged: EventHandler<Stripe.PayoutPaidEvent | Stripe.PayoutFailedEvent> = {
  async apply(tx, event) {
    if (!event.account) return "ignored";
    const payout = event.data.object;
    return recordPayout(tx, event.type, {
      accountId: event.account,
      payoutId: payout.id,
      amountCents: payout.amount,
      currency: payout.currency,
      status: payout.status,
      arrivalDate: payout.arrival_date ? new Date(payout.arrival_date * 1000) : null,
      failureMessage: payout.failure_message ?? null,
    });
  },
};
