import type Stripe from "stripe";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { lockDonation } from "./find-donation";
import { idOf, type EventHandler } from "./types";

/**
 * A full refund: SUCCEEDED → REFUNDED (the gift stops counting, its tickets are released).
 * Partial refunds are recorded on the timeline only; the gift keeps counting in full.
 */
export const chargeRefunded: EventHandler<Stripe.ChargeRefundedEvent> = {
  async apply(tx, event) {
    const charge = event.data.object;
    const donation = await lockDonation(tx, {
      paymentIntentId: idOf(charge.payment_intent as string | { id: string } | null),
      chargeId: charge.id,
    });
    if (!donation) return "ignored";
    const full = charge.refunded && charge.amount_refunded >= charge.amount;
    const to = full && donation.status === "SUCCEEDED" ? "REFUNDED" : donation.status;
    await moveDonation(tx, donation, to, {
      timelineType: event.type,
      processorEventId: event.id,
      data: { chargeId: charge.id, amountRefunded: charge.amount_refunded, full },
    });
    return "applied";
  },
};
