import { and, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { planInvoiceFailures, recurringPlans } from "@/db/schema";
import { emitRecurringPlanEvent } from "@/lib/webhooks-out/emit";

/**
 * After a renewal invoice was paid and its renewal recorded (in the same transaction): an earlier
 * failure of that invoice is recovered, and a plan that was PAST_DUE before the payment (`wasPastDue`,
 * read before settling it made the plan ACTIVE) is ACTIVE again with no retry pending and
 * `recurring_plan.recovered` goes out. A CANCELED plan stays canceled.
 */
export async function recordPlanRecovery(tx: Tx, plan: { id: string; wasPastDue: boolean }, invoiceId: string): Promise<void> {
  await tx
    .update(planInvoiceFailures)
    .set({ recoveredAt: sql`now()`, nextRetryAt: null })
    .where(and(eq(planInvoiceFailures.invoiceId, invoiceId), isNull(planInvoiceFailures.recoveredAt), isNull(planInvoiceFailures.lostAt)));
  const [after] = await tx
    .update(recurringPlans)
    .set({ pastDueAt: null, nextRetryAt: null, updatedAt: sql`now()` })
    .where(and(eq(recurringPlans.id, plan.id), eq(recurringPlans.status, "ACTIVE")))
    .returning({ id: recurringPlans.id });
  if (after && plan.wasPastDue) await emitRecurringPlanEvent(tx, "recurring_plan.recovered", plan.id);
}
