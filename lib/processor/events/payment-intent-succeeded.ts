import type Stripe from "stripe";
import { settlePayment } from "@/lib/services/donations/settle-payment";
import { idOf, type EventHandler } from "./types";

/** A payment succeeded (see settlePayment); a subscription's payments count through its invoices instead. */
export const paymentIntentSucceeded: EventHandler<Stripe.PaymentIntentSucceededEvent> = {
  apply(tx, event) {
    const pi = event.data.object;
    return settlePayment(tx, event, {
      paymentIntentId: pi.id,
      donationId: pi.metadata?.donationId ?? null,
      chargeId: idOf(pi.latest_charge as string | { id: string } | null),
      amountReceivedCents: pi.amount_received,
    });
  },
};
