import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { recurringPlans, type Donation, type RecurringPlan } from "@/db/schema";
import { lockInitialDonationOfSubscription } from "@/lib/services/donations/lock-donation";

/**
 * A subscription's plan and first donation, both locked for the rest of the transaction, or null
 * when the subscription is not ours. The first donation is locked first, as renewals lock it
 * (recordRenewal), so a failure, a payment and an end of the same subscription take their turns.
 */
export async function lockPlanOfSubscription(tx: Tx, subscriptionId: string): Promise<{ first: Donation; plan: RecurringPlan } | null> {
  const first = await lockInitialDonationOfSubscription(tx, subscriptionId);
  if (!first?.recurringPlanId) return null;
  const [plan] = await tx.select().from(recurringPlans).where(eq(recurringPlans.id, first.recurringPlanId)).for("update");
  return plan ? { first, plan } : null;
}
