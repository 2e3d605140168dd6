import type Stripe from "stripe";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { lockDonation } from "./find-donation";
import type { EventHandler } from "./types";

/**
 * A declined payment. A PENDING donation → FAILED with the processor's reason, except one that
 * holds event tickets: a declined card leaves the PaymentIntent payable (Stripe's
 * `requires_payment_method`; the donor may try another card), so releasing its seats would let
 * them be sold again while this payment can still take the money. It stays PENDING with the
 * reason recorded (`failureReason`, a timeline entry, counted by the card-testing defence) and
 * keeps its tickets until the payment can no longer succeed: the ticket hold's expiry cancels it,
 * or `payment_intent.canceled` arrives. A late, stale failure never undoes a donation that is
 * already SUCCEEDED, DISPUTED or REFUNDED, nor changes one already FAILED: it is only written to
 * the timeline.
 */
export const paymentIntentPaymentFailed: EventHandler<Stripe.PaymentIntentPaymentFailedEvent> = {
  async apply(tx, event) {
    const pi = event.data.object;
    const donation = await lockDonation(tx, { paymentIntentId: pi.id, donationId: pi.metadata?.donationId });
    if (!donation) return "ignored";
    const reason = pi.last_payment_error?.message ?? pi.last_payment_error?.code ?? "Payment failed";
    const settled = donation.status === "SUCCEEDED" || donation.status === "DISPUTED" || donation.status === "REFUNDED";
    const pending = donation.status === "PENDING";
    const holding = pending && Boolean(donation.tickets);
    await moveDonation(tx, donation, pending && !holding ? "FAILED" : donation.status, {
      timelineType: event.type,
      processorEventId: event.id,
      data: {
        paymentIntentId: pi.id,
        reason,
        ...(holding ? { ticketsHeld: donation.tickets } : {}),
        ...(settled ? { ignored: "stale failure after settlement" } : {}),
      },
      failureReason: pending ? reason : undefined,
    });
    return "applied";
  },
};
