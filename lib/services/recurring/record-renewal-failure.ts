import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { donationEvents, donations, planInvoiceFailures, recurringPlans } from "@/db/schema";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { emitRecurringPlanEvent } from "@/lib/webhooks-out/emit";
import { lockPlanOfSubscription } from "./plan-of-subscription";
import { queuePlanPaymentEmail } from "./plan-payment-emails";

export type FailedInvoice = {
  subscriptionId: string;
  invoiceId: string;
  amountDueCents: number;
  currency: string;
  /** The processor's count of attempts so far (1 on the first failure). */
  attemptCount: number;
  /** When the processor tries again; null when it won't. */
  nextRetryAt: Date | null;
};

/**
 * A renewal invoice could not be collected. The invoice's failure is recorded once (its latest
 * attempt wins; an older attempt delivered late changes nothing). Unless the plan has ended or this
 * invoice was already paid (its success came first), the plan is PAST_DUE with the next retry,
 * `recurring_plan.past_due` goes out when it stops being ACTIVE, and the donor gets one email per
 * invoice with a link to replace their card. No donation is made: a failed renewal never counts.
 */
export async function recordRenewalFailure(tx: Tx, source: EventSource, invoice: FailedInvoice): Promise<EventOutcome> {
  const locked = await lockPlanOfSubscription(tx, invoice.subscriptionId);
  if (!locked) return "ignored";
  const { first, plan } = locked;
  const [paid] = await tx
    .select({ succeededAt: donations.succeededAt })
    .from(donations)
    .where(and(eq(donations.invoiceId, invoice.invoiceId), eq(donations.status, "SUCCEEDED")))
    .limit(1);
  const [known] = await tx.select().from(planInvoiceFailures).where(eq(planInvoiceFailures.invoiceId, invoice.invoiceId));
  if (known && known.attemptCount >= invoice.attemptCount) return "ignored";
  if (known) {
    await tx
      .update(planInvoiceFailures)
      .set({ attemptCount: invoice.attemptCount, nextRetryAt: invoice.nextRetryAt })
      .where(eq(planInvoiceFailures.invoiceId, invoice.invoiceId));
  } else {
    await tx.insert(planInvoiceFailures).values({
      invoiceId: invoice.invoiceId,
      planId: plan.id,
      orgId: plan.orgId,
      amountDueCents: invoice.amountDueCents,
      currency: invoice.currency,
      attemptCount: invoice.attemptCount,
      nextRetryAt: invoice.nextRetryAt,
      // Paid before this failure arrived: it was recovered then.
      recoveredAt: paid?.succeededAt ?? null,
      lostAt: plan.status === "CANCELED" ? sql`now()` : null,
    });
  }
  await tx.insert(donationEvents).values({
    donationId: first.id,
    type: source.type,
    processorEventId: source.id,
    data: {
      planId: plan.id,
      invoiceId: invoice.invoiceId,
      attemptCount: invoice.attemptCount,
      nextRetryAt: invoice.nextRetryAt?.toISOString() ?? null,
    },
  });
  const settled = Boolean(paid) || Boolean(known?.recoveredAt) || Boolean(known?.lostAt);
  if (plan.status === "CANCELED" || settled) return "applied";

  await tx
    .update(recurringPlans)
    .set({
      status: "PAST_DUE",
      pastDueAt: sql`coalesce(${recurringPlans.pastDueAt}, now())`,
      nextRetryAt: invoice.nextRetryAt,
      updatedAt: sql`now()`,
    })
    .where(eq(recurringPlans.id, plan.id));
  if (plan.status === "ACTIVE") await emitRecurringPlanEvent(tx, "recurring_plan.past_due", plan.id);
  await queuePlanPaymentEmail(
    tx,
    plan,
    { kind: "renewal-failed", nextRetryAt: invoice.nextRetryAt?.toISOString() ?? null, nextChargeAt: null, card: cardOf(plan) },
    `renewal-failed:${invoice.invoiceId}`,
  );
  return "applied";
}

/** The plan's card as its emails name it, when the processor reported one. */
export function cardOf(plan: {
  cardBrand: string | null;
  cardLast4: string | null;
  cardExpMonth: number | null;
  cardExpYear: number | null;
}): { brand: string | null; last4: string; expMonth: number; expYear: number } | null {
  if (!plan.cardLast4 || !plan.cardExpMonth || !plan.cardExpYear) return null;
  return { brand: plan.cardBrand, last4: plan.cardLast4, expMonth: plan.cardExpMonth, expYear: plan.cardExpYear };
}
