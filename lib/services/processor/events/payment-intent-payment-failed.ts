import type Stripe from "stripe";
import { recordPaymentFailure } from "@/lib/services/donations/record-payment-failure";
import { callService, intentOf, type EventHandler } from "./types";

/**
 * A payment attempt was declined (see recordPaymentFailure). The PaymentIntent itself stays
 * payable (`requires_payment_method`): the donor may try another card.
 */
export const paymentIntentPaymentFailed: EventHandler<Stripe.PaymentIntentPaymentFailedEvent> = callService(recordPaymentFailure, (pi) => ({
  ...intentOf(pi),
  reason: pi.last_payment_error?.message ?? pi.last_payment_error?.code ?? "Payment failed",
}));
