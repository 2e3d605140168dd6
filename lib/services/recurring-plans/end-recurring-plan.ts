import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { recurringPlans } from "@/db/schema";
import type { EventOutcome } from "@/lib/services/processor/event-outcome";
import { emitRecurringPlanEvent } from "@/lib/webhooks-out/emit";
import { recordProcessorGaveUp } from "@/lib/services/recurring/record-processor-gave-up";
import { queuePlanCanceledEmails } from "./plan-canceled-emails";

/**
 * The processor ended a subscription (canceled by us, by the donor, or after failed payments):
 * its plan → CANCELED (keeping the first cancellation time), `canceledBy` kept as the canceling
 * request wrote it, else `processor` (it ended on its own). `recurring_plan.canceled` goes out
 * once, and only for a plan that had been announced as created (one that never became ACTIVE was
 * never a plan to the organization's systems). A plan the donor canceled has its confirmation
 * to the donor and its note to the organization queued here, with the change (at most once each);
 * one the processor ended after failed payments tells its donor (see recordProcessorGaveUp).
 */
export async function endRecurringPlan(tx: Tx, subscriptionId: string, reason: string | null = null): Promise<EventOutcome> {
  const [before] = await tx
    .select({ id: recurringPlans.id, status: recurringPlans.status, canceledBy: recurringPlans.canceledBy })
    .from(recurringPlans)
    .where(eq(recurringPlans.subscriptionId, subscriptionId))
    .for("no key update");
  if (!before) return "ignored";
  const [after] = await tx
    .update(recurringPlans)
    .set({
      status: "CANCELED",
      canceledAt: sql`coalesce(${recurringPlans.canceledAt}, now())`,
      canceledBy: sql`coalesce(${recurringPlans.canceledBy}, 'processor')`,
      nextRetryAt: null,
      updatedAt: sql`now()`,
    })
    .where(eq(recurringPlans.id, before.id))
    .returning();
  const announced = before.status === "ACTIVE" || before.status === "PAST_DUE";
  if (announced) await emitRecurringPlanEvent(tx, "recurring_plan.canceled", before.id);
  if (before.status !== "CANCELED" && after.canceledBy === "donor") await queuePlanCanceledEmails(tx, after);
  if (before.status !== "CANCELED" && after.canceledBy === "processor") await recordProcessorGaveUp(tx, after, reason);
  return "applied";
}
