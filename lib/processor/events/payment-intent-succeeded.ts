import type Stripe from "stripe";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { lockDonation } from "./find-donation";
import { idOf, type EventHandler } from "./types";

/**
 * → SUCCEEDED for a one-time gift, with aggregates, receipt, admin and tribute emails and
 * milestones. A donation linked to a subscription is skipped: its payments count only through
 * `invoice.payment_succeeded`, so a gift is never counted twice.
 *
 * Deliberately narrower than the spec's "any": a DISPUTED or REFUNDED donation is past success
 * (both start from a settled charge), so a late or retried success event for it is stale and is
 * only written to the timeline; otherwise a refunded gift would count again. Mirrors the
 * contract's rule for stale `payment_intent.payment_failed`.
 */
export const paymentIntentSucceeded: EventHandler<Stripe.PaymentIntentSucceededEvent> = {
  async apply(tx, event) {
    const pi = event.data.object;
    const donation = await lockDonation(tx, { paymentIntentId: pi.id, donationId: pi.metadata?.donationId });
    if (!donation || donation.recurringPlanId || donation.subscriptionId) return "ignored";
    const chargeId = idOf(pi.latest_charge as string | { id: string } | null);
    const stale = donation.status === "DISPUTED" || donation.status === "REFUNDED";
    await moveDonation(tx, donation, stale ? donation.status : "SUCCEEDED", {
      timelineType: event.type,
      processorEventId: event.id,
      data: { paymentIntentId: pi.id, amountReceived: pi.amount_received, ...(stale ? { ignored: "stale success after dispute or refund" } : {}) },
      successEmails: true,
      set: { chargeId: chargeId ?? donation.chargeId, paymentIntentId: donation.paymentIntentId ?? pi.id },
    });
    return "applied";
  },
};
