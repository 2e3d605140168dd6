import type Stripe from "stripe";
import { recordPlanCard } from "@/lib/services/recurring/record-plan-card";
import { idOf, type EventHandler } from "./types";

/** A payment went through: the card it used is kept on its recurring plan, for expiry reminders (see recordPlanCard). */
export const chargeSucceeded: EventHandler<Stripe.ChargeSucceededEvent> = {
  apply(tx, event) {
    const charge = event.data.object;
    const card = charge.payment_method_details?.card;
    const paymentIntentId = idOf(charge.payment_intent);
    if (!card || !paymentIntentId) return Promise.resolve("ignored");
    return recordPlanCard(tx, {
      paymentIntentId,
      chargedAt: new Date(charge.created * 1000),
      card: { brand: card.brand ?? null, last4: card.last4 ?? null, expMonth: card.exp_month, expYear: card.exp_year },
    });
  },
};
