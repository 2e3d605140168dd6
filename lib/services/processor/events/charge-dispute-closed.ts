import type Stripe from "stripe";
import { closeDispute } from "@/lib/services/donations/close-dispute";
import { callService, idOf, type EventHandler } from "./types";

/** A dispute was won or lost (see closeDispute). */
export const chargeDisputeClosed: EventHandler<Stripe.ChargeDisputeClosedEvent> = callService(closeDispute, (dispute) => ({
  disputeId: dispute.id,
  paymentIntentId: idOf(dispute.payment_intent as string | { id: string } | null),
  chargeId: idOf(dispute.charge as string | { id: string } | null),
  resolution: dispute.status,
}));
