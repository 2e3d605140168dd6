import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { campaigns, donors, organizations, type Donation } from "@/db/schema";
import { enqueueEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { lockDonation } from "./lock-donation";
import { moveDonation } from "./move-donation";

/**
 * The processor refunded a charge (after refundDonation, or from its own dashboard). In full: a
 * SUCCEEDED donation → REFUNDED (the gift stops counting, its tickets are released) and a refund
 * confirmation to the donor, once per donation. Partial refunds (only the processor's dashboard
 * makes them) are recorded on the timeline only; the gift keeps counting in full and the donor
 * gets no email from us.
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
  const moved = await moveDonation(tx, donation, to, {
    timelineType: source.type,
    processorEventId: source.id,
    data: { chargeId: refund.chargeId, amountRefunded: refund.amountRefundedCents, full },
  });
  if (to !== donation.status) await queueRefundConfirmation(tx, moved, refund.amountRefundedCents);
  return "applied";
}

function fullName(d: Pick<Donation, "firstName" | "lastName">): string | null {
  return [d.firstName, d.lastName].filter(Boolean).join(" ") || null;
}

/**
 * The donor's refund confirmation, in the gift's language (else the donor's, else the
 * organization's default); its dedupe key is the donation, so a redelivered event sends nothing more.
 */
async function queueRefundConfirmation(tx: Tx, d: Donation, refundedCents: number) {
  const [row] = await tx
    .select({ org: organizations, campaignTitle: campaigns.title, donorLocale: donors.locale })
    .from(organizations)
    .innerJoin(campaigns, eq(campaigns.id, d.campaignId))
    .innerJoin(donors, eq(donors.id, d.donorId))
    .where(eq(organizations.id, d.orgId));
  if (!row || !d.email) return;
  await enqueueEmail(tx, {
    template: "refund-confirmation",
    to: d.email,
    orgId: row.org.id,
    dedupeKey: `refund:${d.id}`,
    props: {
      donorFirstName: d.firstName,
      donorName: fullName(d),
      donorEmail: d.email,
      refundedAmountCents: refundedCents,
      refundedAt: d.updatedAt.toISOString(),
      amountCents: d.amount + d.feeCents,
      currency: d.currency,
      donatedAt: (d.succeededAt ?? d.createdAt).toISOString(),
      campaignTitle: row.campaignTitle,
      donationId: d.id,
      orgName: row.org.name,
      orgContactEmail: row.org.notificationEmail,
      locale: emailLocale(d.locale, row.donorLocale, row.org.defaultLocale),
      timeZone: row.org.timeZone,
    },
  });
}
