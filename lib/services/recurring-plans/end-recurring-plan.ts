import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { recurringPlans } from "@/db/schema";
import type { EventOutcome } from "@/lib/services/processor/event-outcome";
import { emitRecurringPlanEvent } from "@/lib/webhooks-out/emit";

/**
 * The processor ended a subscription (canceled by us, by the donor, or after failed payments):
 * its plan → CANCELED (keeping the first cancellation time). `recurring_plan.canceled` goes out
 * once, and only for a plan that had been announced as created (one that never became ACTIVE was
 * never a plan to the organization's systems).
 */
export async function endRecurringPlan(tx: Tx, subscriptionId: string): Promise<EventOutcome> {
  const [before] = await tx
    .select({ id: recurringPlans.id, status: recurringPlans.status })
    .from(recurringPlans)
    .where(eq(recurringPlans.subscriptionId, subscriptionId))
    .for("no key update");
  if (!before) return "ignored";
  await tx
    .update(recurringPlans)
    .set({ status: "CANCELED", canceledAt: sql`coalesce(${recurringPlans.canceledAt}, now())`, updatedAt: sql`now()` })
    .where(eq(recurringPlans.id, before.id));
  if (before.status === "ACTIVE" || before.status === "PAST_DUE") await emitRecurringPlanEvent(tx, "recurring_plan.canceled", before.id);
  return "applied";
}
