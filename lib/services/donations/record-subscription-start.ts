import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { donations } from "@/db/schema";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { lockInitialDonationOfSubscription } from "./lock-donation";
import { settlePlanInvoice } from "./settle-plan-invoice";

/**
 * A subscription's first invoice was paid: its first donation → SUCCEEDED, with the invoice, its
 * payment and charge recorded (kept if already known), and the plan ACTIVE; the first activation
 * emits `recurring_plan.created`. A subscription that is not ours is ignored.
 */
export async function recordSubscriptionStart(
  tx: Tx,
  source: EventSource,
  invoice: { subscriptionId: string; invoiceId: string; paymentIntentId: string | null; chargeId: string | null },
): Promise<EventOutcome> {
  const initial = await lockInitialDonationOfSubscription(tx, invoice.subscriptionId);
  if (!initial) return "ignored";
  await tx
    .update(donations)
    .set({
      invoiceId: sql`coalesce(${donations.invoiceId}, ${invoice.invoiceId})`,
      paymentIntentId: sql`coalesce(${donations.paymentIntentId}, ${invoice.paymentIntentId})`,
      chargeId: sql`coalesce(${donations.chargeId}, ${invoice.chargeId})`,
    })
    .where(eq(donations.id, initial.id));
  return settlePlanInvoice(tx, source, initial, { ...invoice, billingReason: "subscription_create" });
}
