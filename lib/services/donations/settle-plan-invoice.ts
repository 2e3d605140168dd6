import type { Tx } from "@/db";
import type { Donation } from "@/db/schema";
import type { EventSource } from "@/lib/services/processor/event-outcome";
import { markPlanActive } from "@/lib/services/recurring-plans/mark-plan-active";
import { emitRecurringPlanEvent } from "@/lib/webhooks-out/emit";
import { moveDonation } from "./move-donation";

/**
 * A recurring plan's paid invoice settles `donation` (its first gift or a renewal): the plan
 * ACTIVE, the donation SUCCEEDED with its emails, its timeline naming the invoice; the plan's
 * first activation emits `recurring_plan.created`.
 */
export async function settlePlanInvoice(
  tx: Tx,
  source: EventSource,
  donation: Donation,
  invoice: { subscriptionId: string; invoiceId: string; billingReason: "subscription_create" | "subscription_cycle" },
): Promise<"applied"> {
  const activated = await markPlanActive(tx, donation.recurringPlanId);
  await moveDonation(tx, donation, "SUCCEEDED", {
    timelineType: source.type,
    processorEventId: source.id,
    data: { invoiceId: invoice.invoiceId, billingReason: invoice.billingReason, subscriptionId: invoice.subscriptionId },
    successEmails: true,
    givenDetails: true,
  });
  if (activated) await emitRecurringPlanEvent(tx, "recurring_plan.created", activated);
  return "applied";
}
