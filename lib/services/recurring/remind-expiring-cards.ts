import { and, desc, eq, inArray, isNotNull, or, sql, isNull, ne } from "drizzle-orm";
import type { Db } from "@/db";
import { donations, recurringPlans } from "@/db/schema";
import { nextCycleDate } from "@/lib/recurring-intervals";
import { queuePlanPaymentEmail } from "./plan-payment-emails";
import { cardOf } from "./record-renewal-failure";

/** How long before the charge that would fail the donor is reminded: five weeks, so a monthly plan's donor hears right after the last charge the card can pay. */
export const CARD_EXPIRY_NOTICE_DAYS = 35;
const DAY = 86_400_000;
/** Plans looked at per worker pass. */
const BATCH = 100;

/** The first instant a card is no longer good: the start of the month after its expiry month (UTC). */
export const cardExpiredFrom = (expMonth: number, expYear: number) => new Date(Date.UTC(expYear, expMonth, 1));

/**
 * One reminder per card: an ACTIVE plan whose card (as the processor last reported it) expires
 * before the plan's next charge (one cycle after its latest successful payment), once that charge
 * is at most CARD_EXPIRY_NOTICE_DAYS away. The plan remembers which expiry it reminded of
 * (`cardExpiryNoticeFor`), under a row lock skipped by other workers, so a card is reminded of
 * once and a new card (another expiry) can be reminded of in its turn.
 */
export async function remindExpiringCards(db: Db, options: { now?: Date; orgIds?: string[] } = {}): Promise<number> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const expiry = sql<string>`${recurringPlans.cardExpYear}::text || '-' || lpad(${recurringPlans.cardExpMonth}::text, 2, '0')`;
    const candidates = await tx
      .select()
      .from(recurringPlans)
      .where(
        and(
          eq(recurringPlans.status, "ACTIVE"),
          isNotNull(recurringPlans.cardExpMonth),
          isNotNull(recurringPlans.cardExpYear),
          or(isNull(recurringPlans.cardExpiryNoticeFor), ne(recurringPlans.cardExpiryNoticeFor, expiry)),
          // Cards that stop working within a year and a notice period: no plan charges less often.
          sql`make_date(${recurringPlans.cardExpYear}, ${recurringPlans.cardExpMonth}, 1) < ${new Date(now.getTime() + (366 + CARD_EXPIRY_NOTICE_DAYS) * DAY).toISOString()}::timestamptz`,
          options.orgIds ? inArray(recurringPlans.orgId, options.orgIds) : undefined,
        ),
      )
      .limit(BATCH)
      .for("update", { skipLocked: true });
    let sent = 0;
    for (const plan of candidates) {
      const [last] = await tx
        .select({ succeededAt: donations.succeededAt })
        .from(donations)
        .where(and(eq(donations.recurringPlanId, plan.id), eq(donations.status, "SUCCEEDED")))
        .orderBy(desc(donations.succeededAt))
        .limit(1);
      if (!last?.succeededAt) continue;
      const card = cardOf(plan)!;
      const nextCharge = nextCycleDate(last.succeededAt, plan.interval);
      const expired = cardExpiredFrom(card.expMonth, card.expYear);
      if (expired > nextCharge || nextCharge.getTime() - now.getTime() > CARD_EXPIRY_NOTICE_DAYS * DAY) continue;
      const noticeFor = `${card.expYear}-${String(card.expMonth).padStart(2, "0")}`;
      await tx.update(recurringPlans).set({ cardExpiryNoticeFor: noticeFor }).where(eq(recurringPlans.id, plan.id));
      const queued = await queuePlanPaymentEmail(
        tx,
        plan,
        { kind: "card-expiring", nextRetryAt: null, nextChargeAt: nextCharge.toISOString(), card },
        `card-expiring:${plan.id}:${noticeFor}`,
      );
      if (queued) sent++;
    }
    return sent;
  });
}
