import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { donationEvents, donations, type Donation } from "@/db/schema";
import { conflict, processorUnavailable } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";

/**
 * Asks the processor to refund a SUCCEEDED donation in full. The donation's status and the
 * aggregates follow the processor's `charge.refunded` event (the sandbox sends it at once), so
 * a refund made in the processor's own dashboard takes exactly the same path.
 */
export async function refundDonation(db: Db, processor: PaymentProcessor, donation: Donation, byUserId: string): Promise<Donation> {
  if (donation.status !== "SUCCEEDED" || !donation.paymentIntentId) {
    throw conflict("donation_not_refundable", "Only a succeeded donation can be refunded");
  }
  await db.insert(donationEvents).values({ donationId: donation.id, type: "refund.requested", data: { byUserId } });
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
    if (err.code === "charge_already_refunded") throw conflict("donation_already_refunded", "This donation is already refunded at the payment processor");
    throw processorUnavailable();
  }
  await db.insert(donationEvents).values({ donationId: donation.id, type: "refund.created", data: { refundId } });
  const [after] = await db.select().from(donations).where(eq(donations.id, donation.id));
  return after;
}
