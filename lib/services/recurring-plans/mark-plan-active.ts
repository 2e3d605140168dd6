import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { recurringPlans } from "@/db/schema";

/**
 * A paid invoice makes the plan ACTIVE (a CANCELED plan stays canceled). Answers the plan's ID when
 * this is its first activation, for `recurring_plan.created`; null otherwise.
 */
export async function markPlanActive(tx: Tx, planId: string | null): Promise<string | null> {
  if (!planId) return null;
  const [before] = await tx
    .select({ status: recurringPlans.status })
    .from(recurringPlans)
    .where(eq(recurringPlans.id, planId))
    .for("no key update");
  await tx
    .update(recurringPlans)
    .set({
      status: sql`case when ${recurringPlans.status} = 'CANCELED' then ${recurringPlans.status} else 'ACTIVE'::recurring_plan_status end`,
      updatedAt: sql`now()`,
    })
    .where(eq(recurringPlans.id, planId));
  return before?.status === "INCOMPLETE" ? planId : null;
}
