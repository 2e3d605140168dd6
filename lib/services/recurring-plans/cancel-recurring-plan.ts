import type { Db } from "@/db";
import { getRecurringPlanRow } from "@/db/queries/recurring-plans";
import type { RecurringPlan } from "@/db/schema";
import { conflict, notFound, processorUnavailable } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";
import type { RecurringPlanRow } from "@/lib/schemas/recurring-plans";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/**
 * Cancels a recurring plan's subscription at the processor, now. The plan's status follows the
 * processor's `customer.subscription.deleted` event (the sandbox sends it at once; Stripe soon
 * after), so a cancellation made in the processor's dashboard, or by the donor, takes the same
 * path. The processor is called outside any transaction; the audit entry is written once
 * it has accepted (a refused cancellation records nothing). Answers the plan as it then stands.
 * 409 when the plan is already CANCELED or has no subscription (its first payment form was never
 * completed).
 */
export async function cancelRecurringPlan(
  db: Db,
  processor: PaymentProcessor,
  plan: RecurringPlan,
  audit: AuditContext,
): Promise<RecurringPlanRow> {
  if (plan.status === "CANCELED") throw conflict("recurring_plan_already_canceled", "Recurring plan is already canceled");
  if (!plan.subscriptionId) throw conflict("recurring_plan_without_subscription", "Recurring plan has no subscription to cancel");
  try {
    await processor.cancelSubscription({ subscriptionId: plan.subscriptionId });
  } catch (err) {
    if (!(err instanceof ProcessorError)) throw err;
    log.warn("subscription cancel failed at the processor", { planId: plan.id, ...errorFields(err) });
    throw processorUnavailable();
  }
  await recordAudit(db, audit, {
    orgId: plan.orgId,
    action: "recurring_plan.canceled",
    target: { type: "recurring_plan", id: plan.id },
    data: { status: "CANCELED", subscriptionId: plan.subscriptionId },
  });
  const after = await getRecurringPlanRow(db, plan.id);
  if (!after) throw notFound("recurring_plan_not_found", "Recurring plan not found");
  return after;
}
