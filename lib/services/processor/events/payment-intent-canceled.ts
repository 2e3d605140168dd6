import type Stripe from "stripe";
import { recordPaymentCancellation } from "@/lib/services/donations/record-payment-cancellation";
import { callService, intentOf, type EventHandler } from "./types";

/** A PaymentIntent was canceled and can never be paid (see recordPaymentCancellation). */
export const paymentIntentCanceled: EventHandler<Stripe.PaymentIntentCanceledEvent> = callService(recordPaymentCancellation, (pi) => ({
  ...intentOf(pi),
  cancellationReason: pi.cancellation_reason ?? null,
}));
