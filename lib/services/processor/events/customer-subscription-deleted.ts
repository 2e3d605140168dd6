import type Stripe from "stripe";
import { endRecurringPlan } from "@/lib/services/recurring-plans/end-recurring-plan";
import type { EventHandler } from "./types";

/** A subscription ended (see endRecurringPlan). */
export const customerSubscriptionDeleted: EventHandler<Stripe.CustomerSubscriptionDeletedEvent> = {
  apply(tx, event) {
    return endRecurringPlan(tx, event.data.object.id);
  },
};
