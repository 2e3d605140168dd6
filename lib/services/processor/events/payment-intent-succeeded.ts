import type Stripe from "stripe";
import { settlePayment } from "@/lib/services/donations/settle-payment";
import { callService, idOf, intentOf, type EventHandler } from "./types";

/** A payment succeeded (see settlePayment); a subscription's payments count through its invoices instead. */
export const paymentIntentSucceeded: EventHandler<Stripe.PaymentIntentSucceededEvent> = callService(settlePayment, (pi) => ({
  ...intentOf(pi),
  chargeId: idOf(pi.latest_charge as string | { id: string } | null),
  amountReceivedCents: pi.amount_received,
}));
