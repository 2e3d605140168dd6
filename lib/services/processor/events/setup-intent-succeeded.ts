import type Stripe from "stripe";
import {
  recordPaymentMethodSetup,
  setDefaultPaymentMethodOfSetup,
  type PaymentMethodSetupResult,
} from "@/lib/services/recurring-plans/apply-payment-method-setup";
import type { EventHandler } from "./types";

/** A donor's new card for a recurring plan was confirmed: it becomes the subscription's default (see setDefaultPaymentMethodOfSetup). */
export const setupIntentSucceeded: EventHandler<Stripe.SetupIntentSucceededEvent, PaymentMethodSetupResult> = {
  prepare(event, processor) {
    return setDefaultPaymentMethodOfSetup(event.data.object, processor);
  },
  apply(tx, event, result) {
    return recordPaymentMethodSetup(tx, event, result);
  },
};
