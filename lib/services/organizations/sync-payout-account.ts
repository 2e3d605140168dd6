import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { organizations } from "@/db/schema";
import type { EventOutcome } from "@/lib/services/processor/event-outcome";

/**
 * Keeps the organization's charges/payouts flags in step with its payout account, and moves it
 * ONBOARDING → ACTIVE once both are enabled (an organization only becomes ACTIVE this way). An
 * account that is no organization's is ignored.
 */
export async function syncPayoutAccount(
  tx: Tx,
  account: { accountId: string; chargesEnabled: boolean; payoutsEnabled: boolean },
): Promise<EventOutcome> {
  const { chargesEnabled, payoutsEnabled } = account;
  const updated = await tx
    .update(organizations)
    .set({
      chargesEnabled,
      payoutsEnabled,
      status: chargesEnabled && payoutsEnabled ? "ACTIVE" : sql`${organizations.status}`,
      updatedAt: sql`now()`,
    })
    .where(eq(organizations.processorAccountId, account.accountId))
    .returning({ id: organizations.id });
  return updated.length > 0 ? "applied" : "ignored";
}
