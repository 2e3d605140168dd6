import type Stripe from "stripe";
import { recordRenewal } from "@/lib/services/donations/record-renewal";
import { recordSubscriptionStart } from "@/lib/services/donations/record-subscription-start";
import { lockPlanOfSubscription } from "@/lib/services/recurring/plan-of-subscription";
import { recordPlanRecovery } from "@/lib/services/recurring/record-plan-recovery";
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
 * A subscription's invoice was paid. `subscription_create`: its first payment (see
 * recordSubscriptionStart); `subscription_cycle`: a renewal (see recordRenewal), which also
 * recovers a past-due plan (see recordPlanRecovery). Other billing
 * reasons, and invoices of no subscription, are acknowledged without effect.
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
    const invoiceId = invoice.id as string;
    if (invoice.billing_reason === "subscription_create") {
      return recordSubscriptionStart(tx, event, { subscriptionId, invoiceId, ...payment });
    }
    if (invoice.billing_reason === "subscription_cycle") {
      // Read (and locked) before the renewal makes the plan ACTIVE: was it past due?
      const locked = await lockPlanOfSubscription(tx, subscriptionId);
      const outcome = await recordRenewal(tx, event, {
        subscriptionId,
        invoiceId,
        amountPaidCents: invoice.amount_paid,
        currency: invoice.currency ?? null,
        ...payment,
      });
      if (outcome === "applied" && locked) {
        await recordPlanRecovery(tx, { id: locked.plan.id, wasPastDue: locked.plan.status === "PAST_DUE" }, invoiceId);
      }
      return outcome;
    }
    return "ignored";
  },
};
