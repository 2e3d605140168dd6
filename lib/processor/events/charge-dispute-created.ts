import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { campaigns, organizations } from "@/db/schema";
import { enqueueEmail } from "@/lib/email/enqueue";
import { getEnv } from "@/lib/env";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { lockDonation } from "./find-donation";
import { idOf, type EventHandler } from "./types";

/**
 * Any → DISPUTED (the gift stops counting) and a dispute alert to the organization with the
 * amount, reason and response deadline. The dispute's `payment_intent` can be null: then its
 * charge finds the donation.
 */
export const chargeDisputeCreated: EventHandler<Stripe.ChargeDisputeCreatedEvent> = {
  async apply(tx, event) {
    const dispute = event.data.object;
    const donation = await lockDonation(tx, {
      paymentIntentId: idOf(dispute.payment_intent as string | { id: string } | null),
      chargeId: idOf(dispute.charge as string | { id: string } | null),
    });
    if (!donation) return "ignored";
    await moveDonation(tx, donation, "DISPUTED", {
      timelineType: event.type,
      processorEventId: event.id,
      data: { disputeId: dispute.id, reason: dispute.reason, amount: dispute.amount },
      disputeReason: dispute.reason,
    });
    const [row] = await tx
      .select({ org: organizations, campaignTitle: campaigns.title })
      .from(organizations)
      .innerJoin(campaigns, eq(campaigns.id, donation.campaignId))
      .where(eq(organizations.id, donation.orgId));
    if (row?.org.notificationEmail) {
      const due = dispute.evidence_details?.due_by;
      await enqueueEmail(tx, {
        template: "dispute-alert",
        to: row.org.notificationEmail,
        orgId: row.org.id,
        dedupeKey: `dispute:${dispute.id}`,
        props: {
          orgName: row.org.name,
          campaignTitle: row.campaignTitle,
          donationId: donation.id,
          amountCents: dispute.amount,
          currency: dispute.currency,
          reason: dispute.reason,
          responseDeadline: due ? new Date(due * 1000).toISOString() : null,
          donorEmail: donation.email,
          dashboardUrl: `${getEnv().appUrl}/dashboard/${row.org.slug}/donations/${donation.id}`,
        },
      });
    }
    return "applied";
  },
};
