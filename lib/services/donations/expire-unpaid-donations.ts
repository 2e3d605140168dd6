import { and, asc, eq, inArray, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db";
import { donations, recurringPlans, type Donation } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";
import { markPaymentFailed } from "./failed-payments";
import { moveDonation } from "./move-donation";

/** Donations expired per rule and run; a backlog is worked off over the following runs. */
export const EXPIRY_BATCH = 50;

/** The failure reason of a checkout left unpaid past `ABANDONED_AFTER_HOURS`; clients may test for it. */
export const ABANDONED_REASON = "abandoned";

export const ticketHoldExpiredReason = (minutes: number) => `Ticket hold expired after ${minutes} minute${minutes === 1 ? "" : "s"}`;

export type ExpiryResult = { expired: number; kept: number; errors: number };

/** Which unpaid donations a rule takes (beyond PENDING and its age) and how it fails them. */
export type ExpiryRule = {
  name: string;
  /** How long a donation may stay PENDING, as a Postgres interval (`30 minutes`). */
  after: string;
  where?: SQL;
  timelineType: string;
  failureReason: string;
  data: Record<string, unknown>;
  /** The expiry counts as a failed payment for the card-testing defence (failed-payments.ts). */
  countsAsFailedPayment?: boolean;
};

/**
 * Event donations hold their tickets for `minutes` while the buyer pays. An expired hold counts
 * as a failed payment: seats held and never paid for are how a script keeps an event sold out.
 */
export function ticketHoldRule(minutes: number): ExpiryRule {
  return {
    name: "ticket hold",
    after: `${minutes} minutes`,
    where: isNotNull(donations.tickets),
    timelineType: "ticket_hold.expired",
    failureReason: ticketHoldExpiredReason(minutes),
    data: { holdMinutes: minutes },
    countsAsFailedPayment: true,
  };
}

/**
 * Any checkout left unpaid for `hours`. Renewals are left out: they are recorded when their
 * invoice is already paid (SUCCEEDED in the same transaction), so a PENDING one is never a
 * checkout the donor walked away from.
 */
export function abandonedCheckoutRule(hours: number): ExpiryRule {
  return {
    name: "abandoned checkout",
    after: `${hours} hours`,
    where: eq(donations.isRenewal, false),
    timelineType: "checkout.abandoned",
    failureReason: ABANDONED_REASON,
    data: { abandonedAfterHours: hours },
  };
}

/**
 * Fails the donations `rule` takes: PENDING longer than its age. Each one's payment is canceled
 * at the processor first, and only once the processor confirms the cancel is the donation marked
 * FAILED with the rule's reason (anything it holds, event tickets, released through moveDonation,
 * so `ticketsSold` stays exact). A canceled payment can never succeed afterwards, so an expiry and
 * a `payment_intent.succeeded` never both apply. When the cancel is refused because the payment
 * got there first (succeeded, or still processing), the donation is left PENDING for that
 * payment's own event to settle. The FAILED mark re-checks PENDING under the donation's row lock,
 * so concurrent workers and a racing webhook change it once. A processor error leaves the
 * donation for the next run. A donation that never got a PaymentIntent (its creation died
 * midway) had no payment form, so it is failed without a processor call.
 *
 * A recurring gift's first payment belongs to its subscription's first invoice, which Stripe
 * lets the donor pay until it expires the incomplete subscription (23 hours): its subscription is
 * canceled instead (voiding that invoice; one that already ended is answered as missing, which
 * is as good), then the donation is FAILED and its still INCOMPLETE plan CANCELED. Only an
 * expired ticket hold counts as a failed payment for the card-testing defence; an abandoned
 * checkout does not.
 */
export async function expirePendingDonations(
  db: Db,
  processor: PaymentProcessor,
  rule: ExpiryRule,
  options: { orgIds?: string[]; limit?: number } = {},
): Promise<ExpiryResult> {
  const result: ExpiryResult = { expired: 0, kept: 0, errors: 0 };
  if (options.orgIds?.length === 0) return result;
  const due = await db
    .select({ id: donations.id, paymentIntentId: donations.paymentIntentId, subscriptionId: donations.subscriptionId })
    .from(donations)
    .where(
      and(
        eq(donations.status, "PENDING"),
        rule.where,
        lt(donations.createdAt, sql`now() - ${rule.after}::interval`),
        options.orgIds ? inArray(donations.orgId, options.orgIds) : undefined,
      ),
    )
    .orderBy(asc(donations.createdAt))
    .limit(options.limit ?? EXPIRY_BATCH);

  for (const d of due) {
    try {
      if (d.subscriptionId) {
        await cancelSubscription(processor, d.subscriptionId);
      } else if (d.paymentIntentId) {
        const { status } = await processor.cancelPaymentIntent({ paymentIntentId: d.paymentIntentId, donationId: d.id });
        if (status !== "canceled") {
          log.info(`${rule.name} kept: the payment got there first`, { donationId: d.id, status });
          result.kept++;
          continue;
        }
      }
      if (await markFailed(db, d.id, rule)) result.expired++;
    } catch (err) {
      log.warn(`${rule.name} expiry failed; will retry`, { donationId: d.id, ...errorFields(err) });
      result.errors++;
    }
  }
  if (result.expired + result.kept + result.errors > 0) log.info(`${rule.name}s checked`, result);
  return result;
}

/**
 * The worker's pass over unpaid donations: expired ticket holds (`TICKET_HOLD_MINUTES`), then
 * checkouts abandoned for `ABANDONED_AFTER_HOURS`.
 */
export async function expireUnpaidDonations(db: Db, processor: PaymentProcessor, options: { orgIds?: string[]; limit?: number } = {}) {
  const env = getEnv();
  const holds = await expirePendingDonations(db, processor, ticketHoldRule(env.TICKET_HOLD_MINUTES), options);
  const abandoned = await expirePendingDonations(db, processor, abandonedCheckoutRule(env.ABANDONED_AFTER_HOURS), options);
  return { holds, abandoned };
}

/** Cancels a subscription; one the processor no longer has (canceled, or expired unpaid) is already over. */
async function cancelSubscription(processor: PaymentProcessor, subscriptionId: string): Promise<void> {
  try {
    await processor.cancelSubscription({ subscriptionId });
  } catch (err) {
    if (err instanceof ProcessorError && err.code === "resource_missing") return;
    throw err;
  }
}

async function markFailed(db: Db, donationId: string, rule: ExpiryRule): Promise<Donation | null> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(donations).where(eq(donations.id, donationId)).for("update");
    if (!locked || locked.status !== "PENDING") return null;
    const moved = await moveDonation(tx, locked, "FAILED", {
      timelineType: rule.timelineType,
      data: {
        paymentIntentId: locked.paymentIntentId,
        ...(locked.subscriptionId ? { subscriptionId: locked.subscriptionId } : {}),
        ...rule.data,
      },
      failureReason: rule.failureReason,
    });
    if (rule.countsAsFailedPayment) await markPaymentFailed(tx, { id: locked.id });
    if (locked.recurringPlanId) {
      await tx
        .update(recurringPlans)
        .set({ status: "CANCELED", canceledAt: sql`coalesce(${recurringPlans.canceledAt}, now())`, updatedAt: sql`now()` })
        .where(and(eq(recurringPlans.id, locked.recurringPlanId), eq(recurringPlans.status, "INCOMPLETE")));
    }
    return moved;
  });
}
