import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { recurringPlans } from "@/db/schema";
import { emitRecurringPlanEvent } from "@/lib/webhooks-out/emit";
import type { EventHandler } from "./types";

/**
 * The processor ended a subscription (canceled by us, by the donor, or after failed payments).
 * `recurring_plan.canceled` goes out once, and only for a plan that had been announced as created
 * (one that never became ACTIVE was never a plan to the organization's systems).
 */
export const customerSubscriptionDeleted: EventHandler<Stripe.CustomerSubscriptionDeletedEvent> = {
  async apply(tx, event) {
    const sub = event.data.object;
    const [before] = await tx
      .select({ id: recurringPlans.id, status: recurringPlans.status })
      .from(recurringPlans)
      .where(eq(recurringPlans.subscriptionId, sub.id))
      .for("no key update");
    if (!before) return "ignored";
    await tx
      .update(recurringPlans)
      .set({ status: "CANCELED", canceledAt: sql`coalesce(${recurringPlans.canceledAt}, now())`, updatedAt: sql`now()` })
      .where(eq(recurringPlans.id, before.id));
    if (before.status === "ACTIVE" || before.status === "PAST_DUE") await emitRecurringPlanEvent(tx, "recurring_plan.canceled", before.id);
    return "applied";
  },
};
