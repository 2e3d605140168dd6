import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { donations, recurringPlans } from "@/db/schema";
import { newId } from "@/lib/ids";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { lockInitialDonationOfSubscription } from "./lock-donation";
import { settlePlanInvoice } from "./settle-plan-invoice";

/**
 * A subscription's renewal invoice was paid: a new renewal donation, SUCCEEDED, a copy of the
 * first donation's donor and gift (the gift at most the plan's current amount, the rest of what
 * was paid its covered fees). At most one per invoice ID: the unique index on `invoice_id` decides,
 * also between concurrent deliveries, and a second one is ignored. The plan stays ACTIVE.
 */
export async function recordRenewal(
  tx: Tx,
  source: EventSource,
  invoice: {
    subscriptionId: string;
    invoiceId: string;
    amountPaidCents: number;
    currency: string | null;
    paymentIntentId: string | null;
    chargeId: string | null;
  },
): Promise<EventOutcome> {
  const initial = await lockInitialDonationOfSubscription(tx, invoice.subscriptionId);
  if (!initial) return "ignored";
  const paid = invoice.amountPaidCents;
  // The gift per cycle is the plan's (changed by the donor since, maybe); the rest of what was paid, covered fees.
  const [plan] = initial.recurringPlanId
    ? await tx.select({ amount: recurringPlans.amount }).from(recurringPlans).where(eq(recurringPlans.id, initial.recurringPlanId))
    : [];
  const amount = Math.min(paid, plan?.amount ?? initial.amount);
  const [renewal] = await tx
    .insert(donations)
    .values({
      id: newId("don"),
      orgId: initial.orgId,
      campaignId: initial.campaignId,
      donorId: initial.donorId,
      amount,
      feeCents: paid - amount,
      coverFees: initial.coverFees,
      currency: invoice.currency ?? initial.currency,
      status: "PENDING",
      email: initial.email,
      firstName: initial.firstName,
      lastName: initial.lastName,
      anonymous: initial.anonymous,
      // Its receipt is written in the language of the plan's first gift.
      locale: initial.locale,
      recurringInterval: initial.recurringInterval,
      recurringPlanId: initial.recurringPlanId,
      subscriptionId: invoice.subscriptionId,
      isRenewal: true,
      invoiceId: invoice.invoiceId,
      paymentIntentId: invoice.paymentIntentId,
      chargeId: invoice.chargeId,
    })
    .onConflictDoNothing()
    .returning();
  if (!renewal) return "ignored"; // this invoice already made its renewal
  return settlePlanInvoice(tx, source, renewal, { ...invoice, billingReason: "subscription_cycle" });
}
