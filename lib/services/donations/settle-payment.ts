import type { Tx } from "@/db";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { lockDonation } from "./lock-donation";
import { moveDonation } from "./move-donation";

/**
 * A one-time gift's payment succeeded: → SUCCEEDED, with aggregates, receipt, admin and tribute
 * emails and milestones. A donation linked to a subscription is skipped: its payments count only
 * through its invoices (recordSubscriptionStart, recordRenewal), so a gift is never counted twice.
 *
 * A DISPUTED or REFUNDED donation is past success (both start from a settled charge), so a late
 * or retried success for it is stale and is only written to the timeline; otherwise a refunded
 * gift would count again. The same rule as for a stale failure (recordPaymentFailure).
 */
export async function settlePayment(
  tx: Tx,
  source: EventSource,
  payment: { paymentIntentId: string; donationId: string | null; chargeId: string | null; amountReceivedCents: number | undefined },
): Promise<EventOutcome> {
  const donation = await lockDonation(tx, { paymentIntentId: payment.paymentIntentId, donationId: payment.donationId });
  if (!donation || donation.recurringPlanId || donation.subscriptionId) return "ignored";
  const stale = donation.status === "DISPUTED" || donation.status === "REFUNDED";
  await moveDonation(tx, donation, stale ? donation.status : "SUCCEEDED", {
    timelineType: source.type,
    processorEventId: source.id,
    data: {
      paymentIntentId: payment.paymentIntentId,
      amountReceived: payment.amountReceivedCents,
      ...(stale ? { ignored: "stale success after dispute or refund" } : {}),
    },
    successEmails: true,
    givenDetails: true,
    set: { chargeId: payment.chargeId ?? donation.chargeId, paymentIntentId: donation.paymentIntentId ?? payment.paymentIntentId },
  });
  return "applied";
}
