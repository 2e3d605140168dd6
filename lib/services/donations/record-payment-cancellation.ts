import type { Tx } from "@/db";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { lockDonation } from "./lock-donation";
import { moveDonation } from "./move-donation";

/** The donation's failure reason for each of the processor's cancellation reasons. */
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
 * The payment was canceled → FAILED: it can never be paid, so the donation releases its event
 * tickets. A stale cancel never undoes a settled donation (SUCCEEDED, DISPUTED, REFUNDED): it is
 * only written to the timeline. A donation that is already FAILED keeps the reason it failed
 * with (a ticket-hold expiry cancels the payment first and fails the donation itself, so the
 * processor's cancel arrives after). A subscription's payment is skipped, like its success: the
 * subscription's own invoices decide the gift.
 */
export async function recordPaymentCancellation(
  tx: Tx,
  source: EventSource,
  cancel: { paymentIntentId: string; donationId: string | null; cancellationReason: string | null },
): Promise<EventOutcome> {
  const donation = await lockDonation(tx, { paymentIntentId: cancel.paymentIntentId, donationId: cancel.donationId });
  if (!donation || donation.recurringPlanId || donation.subscriptionId) return "ignored";
  const reason = (cancel.cancellationReason && REASONS[cancel.cancellationReason]) ?? "Payment canceled";
  const settled = donation.status === "SUCCEEDED" || donation.status === "DISPUTED" || donation.status === "REFUNDED";
  const stay = settled || donation.status === "FAILED";
  await moveDonation(tx, donation, stay ? donation.status : "FAILED", {
    timelineType: source.type,
    processorEventId: source.id,
    data: {
      paymentIntentId: cancel.paymentIntentId,
      cancellationReason: cancel.cancellationReason,
      ...(settled ? { ignored: "stale cancel after settlement" } : {}),
    },
    failureReason: stay ? undefined : reason,
  });
  return "applied";
}
