import type { Tx } from "@/db";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { lockDonation } from "./lock-donation";
import { moveDonation } from "./move-donation";

/**
 * A dispute was decided: a DISPUTED donation → SUCCEEDED when it was won (the gift counts again),
 * → REFUNDED when lost. Any other resolution, or a donation no longer DISPUTED, only goes to the
 * timeline.
 */
export async function closeDispute(
  tx: Tx,
  source: EventSource,
  dispute: { disputeId: string; paymentIntentId: string | null; chargeId: string | null; resolution: string },
): Promise<EventOutcome> {
  const donation = await lockDonation(tx, { paymentIntentId: dispute.paymentIntentId, chargeId: dispute.chargeId });
  if (!donation) return "ignored";
  const outcome = dispute.resolution === "won" ? "SUCCEEDED" : dispute.resolution === "lost" ? "REFUNDED" : null;
  const to = donation.status === "DISPUTED" && outcome ? outcome : donation.status;
  await moveDonation(tx, donation, to, {
    timelineType: source.type,
    processorEventId: source.id,
    data: { disputeId: dispute.disputeId, resolution: dispute.resolution },
  });
  return "applied";
}
