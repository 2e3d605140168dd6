import { and, eq, isNull, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { planInvoiceFailures, type RecurringPlan } from "@/db/schema";
import { queuePlanPaymentEmail } from "./plan-payment-emails";
import { cardOf } from "./record-renewal-failure";

/**
 * The processor ended a plan on its own (no one asked it to). When that was after failed payments
 * (`cancellation_details.reason` "payment_failed", or an invoice of the plan still unpaid), its
 * unpaid invoices are lost and the donor is told once (`plan-gave-up:<planId>`), with a link to
 * their account page. A plan that ended for another reason is left as it is.
 */
export async function recordProcessorGaveUp(tx: Tx, plan: RecurringPlan, reason: string | null): Promise<void> {
  const lost = await tx
    .update(planInvoiceFailures)
    .set({ lostAt: sql`now()`, nextRetryAt: null })
    .where(and(eq(planInvoiceFailures.planId, plan.id), isNull(planInvoiceFailures.recoveredAt), isNull(planInvoiceFailures.lostAt)))
    .returning({ invoiceId: planInvoiceFailures.invoiceId });
  if (lost.length === 0 && reason !== "payment_failed") return;
  await queuePlanPaymentEmail(
    tx,
    plan,
    { kind: "gave-up", nextRetryAt: null, nextChargeAt: null, card: cardOf(plan) },
    `plan-gave-up:${plan.id}`,
  );
}
