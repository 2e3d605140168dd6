import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { donations, recurringPlans } from "@/db/schema";
import { newId } from "@/lib/ids";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { emitRecurringPlanEvent } from "@/lib/webhooks-out/emit";
import { lockInitialDonationOfSubscription } from "./find-donation";
import { idOf, type EventHandler } from "./types";

type InvoicePayment = { paymentIntentId: string | null; chargeId: string | null };

/** The subscription of an invoice, in the current shape (`parent.subscription_details`) or the older one. */
export function subscriptionOfInvoice(invoice: Stripe.Invoice): string | null {
  const current = invoice.parent?.subscription_details?.subscription;
  const legacy = (invoice as unknown as { subscription?: string | { id: string } | null }).subscription;
  return idOf(current ?? legacy ?? null);
}

/** The invoice's payment as far as the payload tells (current payloads may leave it out). */
function paymentInPayload(invoice: Stripe.Invoice): InvoicePayment {
  const legacy = invoice as unknown as { payment_intent?: string | { id: string } | null; charge?: string | { id: string } | null };
  const listed = invoice.payments?.data?.find((p) => p.payment?.payment_intent || p.payment?.charge)?.payment;
  return {
    paymentIntentId: idOf(listed?.payment_intent ?? legacy.payment_intent ?? null),
    chargeId: idOf(listed?.charge ?? legacy.charge ?? null),
  };
}

/**
 * Recurring gifts. `subscription_create`: the first donation → SUCCEEDED, the subscription ID
 * recorded. `subscription_cycle`: a new renewal donation, SUCCEEDED, at most one per invoice ID
 * (the unique index on `invoice_id` decides, also between concurrent deliveries). Other billing
 * reasons are acknowledged without effect.
 */
export const invoicePaymentSucceeded: EventHandler<Stripe.InvoicePaymentSucceededEvent, InvoicePayment> = {
  async prepare(event, processor) {
    const invoice = event.data.object;
    const known = paymentInPayload(invoice);
    if (known.paymentIntentId || processor.mode !== "stripe" || !invoice.id) return known;
    // Fetch what the payload omits, so a renewal's later dispute can be matched to it.
    return processor.getInvoicePayment({ invoiceId: invoice.id, accountId: event.account ?? null });
  },

  async apply(tx, event, payment) {
    const invoice = event.data.object;
    const subscriptionId = subscriptionOfInvoice(invoice);
    if (!subscriptionId) return "ignored";
    const initial = await lockInitialDonationOfSubscription(tx, subscriptionId);
    if (!initial) return "ignored";

    if (invoice.billing_reason === "subscription_create") {
      await tx
        .update(donations)
        .set({
          invoiceId: sql`coalesce(${donations.invoiceId}, ${invoice.id})`,
          paymentIntentId: sql`coalesce(${donations.paymentIntentId}, ${payment.paymentIntentId})`,
          chargeId: sql`coalesce(${donations.chargeId}, ${payment.chargeId})`,
        })
        .where(eq(donations.id, initial.id));
      const activated = await markPlanActive(tx, initial.recurringPlanId);
      await moveDonation(tx, initial, "SUCCEEDED", {
        timelineType: event.type,
        processorEventId: event.id,
        data: { invoiceId: invoice.id, billingReason: invoice.billing_reason, subscriptionId },
        successEmails: true,
      });
      if (activated) await emitRecurringPlanEvent(tx, "recurring_plan.created", activated);
      return "applied";
    }

    if (invoice.billing_reason === "subscription_cycle") {
      const paid = invoice.amount_paid;
      const amount = Math.min(paid, initial.amount);
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
          recurringInterval: initial.recurringInterval,
          recurringPlanId: initial.recurringPlanId,
          subscriptionId,
          isRenewal: true,
          invoiceId: invoice.id,
          paymentIntentId: payment.paymentIntentId,
          chargeId: payment.chargeId,
        })
        .onConflictDoNothing()
        .returning();
      if (!renewal) return "ignored"; // this invoice already made its renewal
      const activated = await markPlanActive(tx, initial.recurringPlanId);
      await moveDonation(tx, renewal, "SUCCEEDED", {
        timelineType: event.type,
        processorEventId: event.id,
        data: { invoiceId: invoice.id, billingReason: invoice.billing_reason, subscriptionId },
        successEmails: true,
      });
      if (activated) await emitRecurringPlanEvent(tx, "recurring_plan.created", activated);
      return "applied";
    }
    return "ignored";
  },
};

/** ACTIVE unless CANCELED; answers the plan's ID when this is its first activation (`recurring_plan.created`). */
async function markPlanActive(tx: Parameters<EventHandler["apply"]>[0], planId: string | null): Promise<string | null> {
  if (!planId) return null;
  const [before] = await tx.select({ status: recurringPlans.status }).from(recurringPlans).where(eq(recurringPlans.id, planId)).for("no key update");
  await tx
    .update(recurringPlans)
    .set({ status: sql`case when ${recurringPlans.status} = 'CANCELED' then ${recurringPlans.status} else 'ACTIVE'::recurring_plan_status end`, updatedAt: sql`now()` })
    .where(eq(recurringPlans.id, planId));
  return before?.status === "INCOMPLETE" ? planId : null;
}
