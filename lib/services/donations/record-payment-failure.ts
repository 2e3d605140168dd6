import type { Tx } from "@/db";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { lockDonation } from "./lock-donation";
import { moveDonation } from "./move-donation";

/**
 * A declined payment. A PENDING donation → FAILED with the processor's reason, except one that
 * holds event tickets: a declined card leaves the payment payable (the donor may try another
 * card), so releasing its seats would let them be sold again while this payment can still take
 * the money. It stays PENDING with the reason recorded (`failureReason`, a timeline entry,
 * counted by the card-testing defence) and keeps its tickets until the payment can no longer
 * succeed: the ticket hold's expiry cancels it, or the processor reports it canceled
 * (recordPaymentCancellation). A late, stale failure never undoes a donation that is already
 * SUCCEEDED, DISPUTED or REFUNDED, nor changes one already FAILED: it is only written to the
 * timeline.
 */
export async function recordPaymentFailure(
  tx: Tx,
  source: EventSource,
  failure: { paymentIntentId: string; donationId: string | null; reason: string },
): Promise<EventOutcome> {
  const donation = await lockDonation(tx, { paymentIntentId: failure.paymentIntentId, donationId: failure.donationId });
  if (!donation) return "ignored";
  const { reason } = failure;
  const settled = donation.status === "SUCCEEDED" || donation.status === "DISPUTED" || donation.status === "REFUNDED";
  const pending = donation.status === "PENDING";
  const holding = pending && Boolean(donation.tickets);
  await moveDonation(tx, donation, pending && !holding ? "FAILED" : donation.status, {
    timelineType: source.type,
    processorEventId: source.id,
    data: {
      paymentIntentId: failure.paymentIntentId,
      reason,
      ...(holding ? { ticketsHeld: donation.tickets } : {}),
      ...(settled ? { ignored: "stale failure after settlement" } : {}),
    },
    failureReason: pending ? reason : undefined,
  });
  return "applied";
}
