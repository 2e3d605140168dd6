import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { organizations, payouts } from "@/db/schema";
import type { EventOutcome } from "@/lib/services/processor/event-outcome";
import { emitPayoutEvent } from "@/lib/webhooks-out/emit";

/**
 * A payout from an organization's payout account was paid or failed: its record, created or
 * brought up to date (the processor may report a payout more than once), and `payout.paid` /
 * `payout.failed` to the organization's webhooks. A payout of an account that is no
 * organization's is ignored.
 */
export async function recordPayout(
  tx: Tx,
  outcome: "payout.paid" | "payout.failed",
  payout: {
    accountId: string;
    payoutId: string;
    amountCents: number;
    currency: string;
    status: string;
    arrivalDate: Date | null;
    failureMessage: string | null;
  },
): Promise<EventOutcome> {
  const [org] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.processorAccountId, payout.accountId));
  if (!org) return "ignored";
  const values = {
    amount: payout.amountCents,
    currency: payout.currency,
    status: payout.status,
    arrivalDate: payout.arrivalDate,
    failureMessage: payout.failureMessage,
  };
  const [row] = await tx
    .insert(payouts)
    .values({ id: payout.payoutId, orgId: org.id, ...values })
    .onConflictDoUpdate({ target: payouts.id, set: { ...values, updatedAt: sql`now()` } })
    .returning();
  await emitPayoutEvent(tx, outcome, row);
  return "applied";
}
