import type Stripe from "stripe";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { lockDonation } from "./find-donation";
import type { EventHandler } from "./types";

const REASONS: Record<string, string> = {
  abandoned: "Payment canceled: abandoned",
  automatic: "Payment canceled: expired",
  duplicate: "Payment canceled: duplicate",
  failed_invoice: "Payment canceled: invoice failed",
  fraudulent: "Payment canceled: fraudulent",
  requested_by_customer: "Payment canceled at the donor's request",
  void_invoice: "Payment canceled: invoice voided",
};

/**
 * → FAILED: a canceled PaymentIntent can never be paid, so the donation releases its event
 * tickets. A stale cancel never undoes a settled donation (SUCCEEDED, DISPUTED, REFUNDED): it is
 * only written to the timeline. A donation that is already FAILED keeps the reason it failed
 * with (a ticket-hold expiry cancels the payment first and fails the donation itself, so
 * Stripe's `payment_intent.canceled` arrives after). A subscription's intent is skipped, like
 * its `payment_intent.succeeded`: the subscription's own events decide the gift.
 */
export const paymentIntentCanceled: EventHandler<Stripe.PaymentIntentCanceledEvent> = {
  async apply(tx, event) {
    const pi = event.data.object;
    const donation = await lockDonation(tx, { paymentIntentId: pi.id, donationId: pi.metadata?.donationId });
    if (!donation || donation.recurringPlanId || donation.subscriptionId) return "ignored";
    const reason = (pi.cancellation_reason && REASONS[pi.cancellation_reason]) ?? "Payment canceled";
    const settled = donation.status === "SUCCEEDED" || donation.status === "DISPUTED" || donation.status === "REFUNDED";
    const stay = settled || donation.status === "FAILED";
    await moveDonation(tx, donation, stay ? donation.status : "FAILED", {
      timelineType: event.type,
      processorEventId: event.id,
      data: {
        paymentIntentId: pi.id,
        cancellationReason: pi.cancellation_reason ?? null,
        ...(settled ? { ignored: "stale cancel after settlement" } : {}),
      },
      failureReason: stay ? undefined : reason,
    });
    return "applied";
  },
};
