import type Stripe from "stripe";
import { openDispute } from "@/lib/services/donations/open-dispute";
import { callService, idOf, type EventHandler } from "./types";

/** A charge is disputed (see openDispute). The dispute's `payment_intent` can be null: then its charge finds the donation. */
export const chargeDisputeCreated: EventHandler<Stripe.ChargeDisputeCreatedEvent> = callService(openDispute, (dispute) => {
  const due = dispute.evidence_details?.due_by;
  return {
    disputeId: dispute.id,
    paymentIntentId: idOf(dispute.payment_intent as string | { id: string } | null),
    chargeId: idOf(dispute.charge as string | { id: string } | null),
    reason: dispute.reason,
    amountCents: dispute.amount,
    currency: dispute.currency,
    respondBy: due ? new Date(due * 1000) : null,
  };
});
