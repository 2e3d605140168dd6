import type Stripe from "stripe";
import { recordPaymentCancellation } from "@/lib/services/donations/record-payment-cancellation";
import type { EventHandler } from "./types";

/** A PaymentIntent was canceled and can never be paid (see recordPaymentCancellation). */
export const paymentIntentCanceled: EventHandler<Stripe.PaymentIntentCanceledEvent> = {
  apply(tx, event) {
    const pi = event.data.object;
    return recordPaymentCancellation(tx, event, {
      paymentIntentId: pi.id,
      donationId: pi.metadata?.donationId ?? null,
      cancellationReason: pi.cancellation_reason ?? null,
    });
  },
};
