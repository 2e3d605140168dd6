import type { Tx } from "@/db";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { lockDonation } from "./lock-donation";
import { moveDonation } from "./move-donation";

/**
 * The processor refunded a charge (after refundDonation, or from its own dashboard). In full: a
 * SUCCEEDED donation → REFUNDED (the gift stops counting, its tickets are released). Partial
 * refunds are recorded on the timeline only; the gift keeps counting in full.
 */
export async function recordRefund(
  tx: Tx,
  source: EventSource,
  refund: { chargeId: string; paymentIntentId: string | null; amountCents: number; amountRefundedCents: number; refunded: boolean },
): Promise<EventOutcome> {
  const donation = await lockDonation(tx, { paymentIntentId: refund.paymentIntentId, chargeId: refund.chargeId });
  if (!donation) return "ignored";
  const full = refund.refunded && refund.amountRefundedCents >= refund.amountCents;
  const to = full && donation.status === "SUCCEEDED" ? "REFUNDED" : donation.status;
  await moveDonation(tx, donation, to, {
    timelineType: source.type,
    processorEventId: source.id,
    data: { chargeId: refund.chargeId, amountRefunded: refund.amountRefundedCents, full },
  });
  return "applied";
}
