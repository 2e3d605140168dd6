import type Stripe from "stripe";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { lockDonation } from "./find-donation";
import { idOf, type EventHandler } from "./types";

/** DISPUTED → SUCCEEDED when won, → REFUNDED when lost; the resolution goes to the timeline. */
export const chargeDisputeClosed: EventHandler<Stripe.ChargeDisputeClosedEvent> = {
  async apply(tx, event) {
    const dispute = event.data.object;
    const donation = await lockDonation(tx, {
      paymentIntentId: idOf(dispute.payment_intent as string | { id: string } | null),
      chargeId: idOf(dispute.charge as string | { id: string } | null),
    });
    if (!donation) return "ignored";
    const outcome = dispute.status === "won" ? "SUCCEEDED" : dispute.status === "lost" ? "REFUNDED" : null;
    const to = donation.status === "DISPUTED" && outcome ? outcome : donation.status;
    await moveDonation(tx, donation, to, {
      timelineType: event.type,
      processorEventId: event.id,
      data: { disputeId: dispute.id, resolution: dispute.status },
    });
    return "applied";
  },
};
