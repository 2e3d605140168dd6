import type Stripe from "stripe";
import { recordRefund } from "@/lib/services/donations/record-refund";
import { callService, idOf, type EventHandler } from "./types";

/** A charge was refunded, in full or in part (see recordRefund). */
export const chargeRefunded: EventHandler<Stripe.ChargeRefundedEvent> = callService(recordRefund, (charge) => ({
  chargeId: charge.id,
  paymentIntentId: idOf(charge.payment_intent as string | { id: string } | null),
  amountCents: charge.amount,
  amountRefundedCents: charge.amount_refunded,
  refunded: charge.refunded,
}));
