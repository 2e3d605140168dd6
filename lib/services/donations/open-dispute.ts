import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { campaigns, organizations } from "@/db/schema";
import { enqueueEmail } from "@/lib/email/enqueue";
import { getEnv } from "@/lib/env";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { lockDonation } from "./lock-donation";
import { moveDonation } from "./move-donation";

/**
 * The donor's bank disputes a payment: the donation, whatever its status → DISPUTED (the gift
 * stops counting), and a dispute alert to the organization's notification address with the
 * amount, reason and response deadline (once per dispute). The payment's ID may be unknown: then
 * the charge finds the donation.
 */
export async function openDispute(
  tx: Tx,
  source: EventSource,
  dispute: {
    disputeId: string;
    paymentIntentId: string | null;
    chargeId: string | null;
    reason: string;
    amountCents: number;
    currency: string;
    /** When evidence is due, if the processor says. */
    respondBy: Date | null;
  },
): Promise<EventOutcome> {
  const donation = await lockDonation(tx, { paymentIntentId: dispute.paymentIntentId, chargeId: dispute.chargeId });
  if (!donation) return "ignored";
  await moveDonation(tx, donation, "DISPUTED", {
    timelineType: source.type,
    processorEventId: source.id,
    data: { disputeId: dispute.disputeId, reason: dispute.reason, amount: dispute.amountCents },
    disputeReason: dispute.reason,
  });
  const [row] = await tx
    .select({ org: organizations, campaignTitle: campaigns.title })
    .from(organizations)
    .innerJoin(campaigns, eq(campaigns.id, donation.campaignId))
    .where(eq(organizations.id, donation.orgId));
  if (row?.org.notificationEmail) {
    await enqueueEmail(tx, {
      template: "dispute-alert",
      to: row.org.notificationEmail,
      orgId: row.org.id,
      dedupeKey: `dispute:${dispute.disputeId}`,
      props: {
        orgName: row.org.name,
        timeZone: row.org.timeZone,
        campaignTitle: row.campaignTitle,
        donationId: donation.id,
        amountCents: dispute.amountCents,
        currency: dispute.currency,
        reason: dispute.reason,
        responseDeadline: dispute.respondBy ? dispute.respondBy.toISOString() : null,
        donorEmail: donation.email ?? "Not given",
        dashboardUrl: `${getEnv().appUrl}/dashboard/${row.org.slug}/donations/${donation.id}`,
      },
    });
  }
  return "applied";
}
