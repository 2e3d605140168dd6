import type Stripe from "stripe";
import { recordRenewalFailure } from "@/lib/services/recurring/record-renewal-failure";
import { subscriptionOfInvoice } from "./invoice-payment-succeeded";
import type { EventHandler } from "./types";

/**
 * A subscription's renewal invoice could not be collected (see recordRenewalFailure). The first
 * invoice's failure (`subscription_create`) is the payment form's decline, which
 * `payment_intent.payment_failed` reports; invoices of no subscription are not ours.
 */
export const invoicePaymentFailed: EventHandler<Stripe.InvoicePaymentFailedEvent> = {
  apply(tx, event) {
    const invoice = event.data.object;
    const subscriptionId = subscriptionOfInvoice(invoice);
    if (!subscriptionId || !invoice.id || invoice.billing_reason === "subscription_create") return Promise.resolve("ignored");
    return recordRenewalFailure(tx, event, {
      subscriptionId,
      invoiceId: invoice.id,
      amountDueCents: invoice.amount_due,
      currency: invoice.currency,
      attemptCount: Math.max(1, invoice.attempt_count ?? 1),
      nextRetryAt: invoice.next_payment_attempt ? new Date(invoice.next_payment_attempt * 1000) : null,
    });
  },
};
