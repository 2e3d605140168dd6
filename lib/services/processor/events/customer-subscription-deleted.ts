import type Stripe from "stripe";
import { endRecurringPlan } from "@/lib/services/recurring-plans/end-recurring-plan";
import type { EventHandler } from "./types";

/** A subscription ended (see endRecurringPlan). */
export const customerSubscriptionDeleted: EventHandler<Stripe.CustomerSubscriptionDeletedEvent> = {
  apply(tx, event) {
    const subscription = event.data.object;
    return endRecurringPlan(tx, subscription.id, subscription.cancellation_details?.reason ?? null);
  },
};
