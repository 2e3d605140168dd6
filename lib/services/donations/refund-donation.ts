import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { donationEvents, donations, type Donation } from "@/db/schema";
import { conflict, processorUnavailable } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/**
 * Asks the processor to refund a SUCCEEDED donation in full. The donation's status and the
 * aggregates follow the processor's `charge.refunded` event (the sandbox sends it at once), so
 * a refund made in the processor's own dashboard takes exactly the same path. Once the processor
 * has accepted it, the refund's record and its audit entry commit together; a refund the
 * processor refused leaves no audit entry.
 */
export async function refundDonation(db: Db, processor: PaymentProcessor, donation: Donation, audit: AuditContext): Promise<Donation> {
  if (donation.status !== "SUCCEEDED" || !donation.paymentIntentId) {
    throw conflict("donation_not_refundable", "Only a succeeded donation can be refunded");
  }
  const by = audit.actor.type === "user" ? { byUserId: audit.actor.id } : { byApiKeyId: audit.actor.id };
  await db.insert(donationEvents).values({ donationId: donation.id, type: "refund.requested", data: by });
  let refundId: string;
  try {
    ({ refundId } = await processor.refundPayment({
      paymentIntentId: donation.paymentIntentId,
      donationId: donation.id,
      amountCents: donation.amount + donation.feeCents,
      currency: donation.currency,
      chargeId: donation.chargeId,
    }));
  } catch (err) {
    // The processor refused or is down: a conflict or a bad gateway, never a 500.
    if (!(err instanceof ProcessorError)) throw err;
    log.warn("refund failed at the processor", { donationId: donation.id, ...errorFields(err) });
    if (err.code === "charge_already_refunded")
      throw conflict("donation_already_refunded", "This donation is already refunded at the payment processor");
    throw processorUnavailable();
  }
  await db.transaction(async (tx) => {
    await tx.insert(donationEvents).values({ donationId: donation.id, type: "refund.created", data: { refundId } });
    await recordAudit(tx, audit, {
      orgId: donation.orgId,
      action: "donation.refunded",
      target: { type: "donation", id: donation.id },
      data: { amountCents: donation.amount + donation.feeCents, currency: donation.currency, refundId },
    });
  });
  const [after] = await db.select().from(donations).where(eq(donations.id, donation.id));
  return after;
}
