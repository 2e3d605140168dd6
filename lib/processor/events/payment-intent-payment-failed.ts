import type Stripe from "stripe";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { lockDonation } from "./find-donation";
import type { EventHandler } from "./types";

/**
 * → FAILED with the processor's reason. A late, stale failure never undoes a donation that is
 * already SUCCEEDED, DISPUTED or REFUNDED: it is only written to the timeline.
 */
export const paymentIntentPaymentFailed: EventHandler<Stripe.PaymentIntentPaymentFailedEvent> = {
  async apply(tx, event) {
    const pi = event.data.object;
    const donation = await lockDonation(tx, { paymentIntentId: pi.id, donationId: pi.metadata?.donationId });
    if (!donation) return "ignored";
    const reason = pi.last_payment_error?.message ?? pi.last_payment_error?.code ?? "Payment failed";
    const settled = donation.status === "SUCCEEDED" || donation.status === "DISPUTED" || donation.status === "REFUNDED";
    await moveDonation(tx, donation, settled ? donation.status : "FAILED", {
      timelineType: event.type,
      processorEventId: event.id,
      data: { paymentIntentId: pi.id, reason, ...(settled ? { ignored: "stale failure after settlement" } : {}) },
      failureReason: settled ? undefined : reason,
    });
    return "applied";
  },
};
