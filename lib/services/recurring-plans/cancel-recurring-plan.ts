import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { getRecurringPlanRow, type RecurringPlanRow } from "@/db/queries/recurring-plans";
import { recurringPlans, type RecurringPlan } from "@/db/schema";
import { conflict, notFound, processorUnavailable } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/**
 * Cancels a recurring plan's subscription at the processor, now. The plan's status follows the
 * processor's `customer.subscription.deleted` event (the sandbox sends it at once; Stripe soon
 * after), so a cancellation made in the processor's dashboard, by staff or by the donor takes
 * the same path (endRecurringPlan). Who asked (`by`: staff, or the donor from their account) is
 * written on the plan before the processor is called, so that event (and the outbound
 * `recurring_plan.canceled`) names them (the first to ask, when two do before the event); a
 * refused cancellation clears what it wrote. The processor
 * is called outside any transaction; the audit entry (the staff member or API key, or the donor,
 * as actor) is written once it has accepted (a refused cancellation records nothing). Answers
 * the plan as it then stands. 409 when the plan is already CANCELED or has no subscription (its
 * first payment form was never completed).
 */
export async function cancelRecurringPlan(
  db: Db,
  processor: PaymentProcessor,
  plan: RecurringPlan,
  audit: AuditContext,
  by: "staff" | "donor" = "staff",
): Promise<RecurringPlanRow> {
  if (plan.status === "CANCELED") throw conflict("recurring_plan_already_canceled", "Recurring plan is already canceled");
  if (!plan.subscriptionId) throw conflict("recurring_plan_without_subscription", "Recurring plan has no subscription to cancel");
  // The first request to cancel names who asked; a repeat while the processor's event is on its way keeps that name.
  const [current] = await db
    .update(recurringPlans)
    .set({ canceledBy: sql`coalesce(${recurringPlans.canceledBy}, ${by})`, updatedAt: sql`now()` })
    .where(and(eq(recurringPlans.id, plan.id), ne(recurringPlans.status, "CANCELED")))
    .returning({ canceledBy: recurringPlans.canceledBy });
  if (!current) throw conflict("recurring_plan_already_canceled", "Recurring plan is already canceled");
  const claimed = plan.canceledBy === null && current.canceledBy === by;
  try {
    await processor.cancelSubscription({ subscriptionId: plan.subscriptionId });
  } catch (err) {
    // Still running: nobody canceled it, so a later end of the plan by the processor is not put down to this request.
    if (claimed) {
      await db
        .update(recurringPlans)
        .set({ canceledBy: null })
        .where(and(eq(recurringPlans.id, plan.id), ne(recurringPlans.status, "CANCELED"), eq(recurringPlans.canceledBy, by)));
    }
    if (!(err instanceof ProcessorError)) throw err;
    log.warn("subscription cancel failed at the processor", { planId: plan.id, ...errorFields(err) });
    throw processorUnavailable();
  }
  await recordAudit(db, audit, {
    orgId: plan.orgId,
    action: "recurring_plan.canceled",
    target: { type: "recurring_plan", id: plan.id },
    data: { status: "CANCELED", subscriptionId: plan.subscriptionId, canceledBy: by },
  });
  const after = await getRecurringPlanRow(db, plan.id);
  if (!after) throw notFound("recurring_plan_not_found", "Recurring plan not found");
  return after;
}
