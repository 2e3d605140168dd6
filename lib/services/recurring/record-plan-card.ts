import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { donations, recurringPlans } from "@/db/schema";
import type { EventOutcome } from "@/lib/services/processor/event-outcome";

export type ChargedCard = { brand: string | null; last4: string | null; expMonth: number; expYear: number };

/**
 * A charge of a recurring plan's payment (found by its PaymentIntent: the first gift's or a
 * renewal's) went through with `card`: it is the card the plan's next charges use, kept for the
 * expiry reminder. The newest charge wins, whatever order the events come in.
 */
export async function recordPlanCard(
  tx: Tx,
  charge: { paymentIntentId: string; chargedAt: Date; card: ChargedCard },
): Promise<EventOutcome> {
  const { card } = charge;
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12 || !Number.isInteger(card.expYear)) return "ignored";
  const [donation] = await tx
    .select({ planId: donations.recurringPlanId })
    .from(donations)
    .where(and(eq(donations.paymentIntentId, charge.paymentIntentId), isNotNull(donations.recurringPlanId)))
    .limit(1);
  if (!donation?.planId) return "ignored";
  const updated = await tx
    .update(recurringPlans)
    .set({
      cardBrand: card.brand,
      cardLast4: card.last4,
      cardExpMonth: card.expMonth,
      cardExpYear: card.expYear,
      cardSeenAt: charge.chargedAt,
      updatedAt: sql`now()`,
    })
    .where(
      and(eq(recurringPlans.id, donation.planId), or(isNull(recurringPlans.cardSeenAt), lt(recurringPlans.cardSeenAt, charge.chargedAt))),
    )
    .returning({ id: recurringPlans.id });
  return updated.length > 0 ? "applied" : "ignored";
}

/**
 * The donor saved a new card for the plan: the card last charged is no longer the one its next
 * charges use, so it is forgotten (no reminder about it) until the new card's first charge. An
 * older charge's event arriving after this doesn't bring it back.
 */
export async function forgetPlanCard(tx: Tx, planId: string): Promise<void> {
  await tx
    .update(recurringPlans)
    .set({ cardBrand: null, cardLast4: null, cardExpMonth: null, cardExpYear: null, cardSeenAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(recurringPlans.id, planId));
}
