import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { getRecurringPlanRow, type RecurringPlanRow } from "@/db/queries/recurring-plans";
import { campaigns, donations, recurringPlans, type Campaign, type RecurringPlan } from "@/db/schema";
import { conflict, Issues, notFound, processorUnavailable } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { coverFeeCents, minimumDonationMinor } from "@/lib/money";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";

/** A running plan (ACTIVE or PAST_DUE) with a subscription; 409 otherwise. */
export function assertPlanRunning(plan: RecurringPlan): asserts plan is RecurringPlan & { subscriptionId: string } {
  if (plan.status === "CANCELED") throw conflict("recurring_plan_already_canceled", "Recurring plan is canceled");
  if (plan.status === "INCOMPLETE" || !plan.subscriptionId) {
    throw conflict("recurring_plan_not_active", "Recurring plan has not started: its first payment was never completed");
  }
}

/**
 * The campaign's rules for a gift's amount, as the donate form applies them: at least its
 * minimum, and one of its suggested amounts when it takes no other. Each failure is a 400 on
 * `amount` with the donate form's codes (`amount_below_minimum`, `not_a_suggested_amount`).
 */
export function assertAmountFitsCampaign(
  amount: number,
  campaign: Pick<Campaign, "minAmountCents" | "allowCustomAmount" | "suggestedAmounts">,
  currency: string,
) {
  const issues = new Issues();
  // The currency's smallest gift (as for a new donation) or the campaign's own minimum if higher.
  const minimum = Math.max(minimumDonationMinor(currency), campaign.minAmountCents ?? 0);
  if (amount < minimum) {
    issues.add("amount", `Number must be greater than or equal to ${minimum}`, "amount_below_minimum", { minimum });
  } else if (!campaign.allowCustomAmount && !campaign.suggestedAmounts.includes(amount)) {
    issues.add("amount", `Choose one of the suggested amounts: ${campaign.suggestedAmounts.join(", ")}`, "not_a_suggested_amount", {
      values: campaign.suggestedAmounts,
    });
  }
  issues.throwIfAny();
}

/**
 * Changes a running plan's gift per cycle from its next charge on. The amount is checked
 * against the plan's campaign as a new gift would be; the subscription then charges the new
 * gift plus covered fees when the first gift covered them (computed as the donate form does),
 * with no proration; once the processor accepted, the plan's `amount` follows (renewals are
 * split into gift and fees by it). The processor is called outside any transaction. 409 on a
 * CANCELED or never-started plan; the same amount again changes nothing.
 */
export async function changePlanAmount(
  db: Db,
  processor: PaymentProcessor,
  plan: RecurringPlan,
  amount: number,
): Promise<RecurringPlanRow> {
  assertPlanRunning(plan);
  const [campaign] = await db.select().from(campaigns).where(eq(campaigns.id, plan.campaignId)).limit(1);
  if (!campaign) throw notFound("recurring_plan_not_found", "Recurring plan not found");
  assertAmountFitsCampaign(amount, campaign, plan.currency);

  if (amount !== plan.amount) {
    const [first] = await db
      .select({ coverFees: donations.coverFees })
      .from(donations)
      .where(and(eq(donations.recurringPlanId, plan.id), eq(donations.isRenewal, false)))
      .limit(1);
    const chargeCents = amount + (first?.coverFees ? coverFeeCents(amount) : 0);
    try {
      await processor.updateSubscriptionAmount({ subscriptionId: plan.subscriptionId, amountCents: chargeCents });
    } catch (err) {
      if (!(err instanceof ProcessorError)) throw err;
      log.warn("subscription amount change failed at the processor", { planId: plan.id, ...errorFields(err) });
      throw processorUnavailable();
    }
    await db
      .update(recurringPlans)
      .set({ amount, updatedAt: sql`now()` })
      .where(eq(recurringPlans.id, plan.id));
  }
  const after = await getRecurringPlanRow(db, plan.id);
  if (!after) throw notFound("recurring_plan_not_found", "Recurring plan not found");
  return after;
}
