import type Stripe from "stripe";
import { accountUpdated } from "./account-updated";
import { chargeDisputeClosed } from "./charge-dispute-closed";
import { chargeDisputeCreated } from "./charge-dispute-created";
import { chargeRefunded } from "./charge-refunded";
import { chargeSucceeded } from "./charge-succeeded";
import { customerSubscriptionDeleted } from "./customer-subscription-deleted";
import { invoicePaymentFailed } from "./invoice-payment-failed";
import { invoicePaymentSucceeded } from "./invoice-payment-succeeded";
import { paymentIntentCanceled } from "./payment-intent-canceled";
import { paymentIntentPaymentFailed } from "./payment-intent-payment-failed";
import { paymentIntentSucceeded } from "./payment-intent-succeeded";
import { payoutChanged } from "./payout";
import { setupIntentSucceeded } from "./setup-intent-succeeded";
import type { EventHandler } from "./types";

type HandlerMap = { [T in Stripe.Event["type"]]?: EventHandler<Extract<Stripe.Event, { type: T }>, any> };

/** Every processor event type Goodfund acts on; any other type is acknowledged and ignored. */
export const EVENT_HANDLERS: HandlerMap = {
  "payment_intent.succeeded": paymentIntentSucceeded,
  "payment_intent.payment_failed": paymentIntentPaymentFailed,
  "payment_intent.canceled": paymentIntentCanceled,
  "invoice.payment_succeeded": invoicePaymentSucceeded,
  "invoice.payment_failed": invoicePaymentFailed,
  "account.updated": accountUpdated,
  "charge.dispute.created": chargeDisputeCreated,
  "charge.dispute.closed": chargeDisputeClosed,
  "charge.refunded": chargeRefunded,
  "charge.succeeded": chargeSucceeded,
  "customer.subscription.deleted": customerSubscriptionDeleted,
  "setup_intent.succeeded": setupIntentSucceeded,
  "payout.paid": payoutChanged,
  "payout.failed": payoutChanged,
};
