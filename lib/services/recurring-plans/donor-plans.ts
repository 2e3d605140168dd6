import { and, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import type { RecurringPlanRow } from "@/db/queries/recurring-plans";
import { recurringPlans, type Donor, type RecurringPlan } from "@/db/schema";
import { notFound } from "@/lib/errors";
import type { PaymentProcessor } from "@/lib/processor/types";
import type { AuditContext } from "@/lib/services/audit/record-audit";
import { cancelRecurringPlan } from "./cancel-recurring-plan";

/**
 * One of the signed-in donor's own plans in that organization. Another donor's plan, or another
 * organization's, answers exactly as a plan that does not exist: 404 `Recurring plan not found`.
 */
export async function getDonorPlanOrThrow(db: DbOrTx, orgId: string, donorId: string, planId: string): Promise<RecurringPlan> {
  const [plan] = await db
    .select()
    .from(recurringPlans)
    .where(and(eq(recurringPlans.id, planId), eq(recurringPlans.orgId, orgId), eq(recurringPlans.donorId, donorId)))
    .limit(1);
  if (!plan) throw notFound("recurring_plan_not_found", "Recurring plan not found");
  return plan;
}

/**
 * The donor cancels their own plan from their account: the same cancellation as staff's
 * (cancelRecurringPlan), with `canceledBy: "donor"`, the donor as the audit entry's actor, and,
 * once the processor reports the end, the donor's confirmation and the organization's note
 * (endRecurringPlan).
 */
export async function cancelPlanAsDonor(
  db: Db,
  processor: PaymentProcessor,
  plan: RecurringPlan,
  donor: Pick<Donor, "id" | "email">,
  request: { requestId: string; clientIp: string },
): Promise<RecurringPlanRow> {
  const audit: AuditContext = { actor: { type: "donor", id: donor.id, label: donor.email }, ...request };
  return cancelRecurringPlan(db, processor, plan, audit, "donor");
}
