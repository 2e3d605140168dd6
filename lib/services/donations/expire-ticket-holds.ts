import { and, asc, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { donations, type Donation } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import type { PaymentProcessor } from "@/lib/processor/types";
import { moveDonation } from "./move-donation";

/** Holds released per run; a backlog is worked off over the following runs. */
export const EXPIRY_BATCH = 50;

export const ticketHoldExpiredReason = (minutes: number) => `Ticket hold expired after ${minutes} minute${minutes === 1 ? "" : "s"}`;

export type ExpiryResult = { expired: number; kept: number; errors: number };

/**
 * Releases the tickets of event donations left PENDING longer than `TICKET_HOLD_MINUTES`: each
 * one's payment is canceled at the processor first, and only once the processor confirms the
 * cancel is the donation marked FAILED (its tickets released through moveDonation, so
 * `ticketsSold` stays exact). A canceled payment can never succeed afterwards, so an expiry and
 * a `payment_intent.succeeded` never both apply. When the cancel is refused because the payment
 * got there first (succeeded, or still processing), the donation is left PENDING for that
 * payment's own event to settle. The FAILED mark re-checks PENDING under the donation's row lock,
 * so concurrent workers and a racing webhook change it once. A processor error leaves the
 * donation for the next run. A donation that never got a PaymentIntent (its creation died
 * midway) had no payment form, so it is failed without a processor call.
 */
export async function expireTicketHolds(db: Db, processor: PaymentProcessor, options: { orgIds?: string[]; limit?: number } = {}): Promise<ExpiryResult> {
  const minutes = getEnv().TICKET_HOLD_MINUTES;
  const result: ExpiryResult = { expired: 0, kept: 0, errors: 0 };
  if (options.orgIds?.length === 0) return result;
  const due = await db
    .select({ id: donations.id, paymentIntentId: donations.paymentIntentId })
    .from(donations)
    .where(
      and(
        eq(donations.status, "PENDING"),
        isNotNull(donations.tickets),
        lt(donations.createdAt, sql`now() - ${`${minutes} minutes`}::interval`),
        options.orgIds ? inArray(donations.orgId, options.orgIds) : undefined,
      ),
    )
    .orderBy(asc(donations.createdAt))
    .limit(options.limit ?? EXPIRY_BATCH);

  for (const d of due) {
    try {
      if (d.paymentIntentId) {
        const { status } = await processor.cancelPaymentIntent({ paymentIntentId: d.paymentIntentId, donationId: d.id });
        if (status !== "canceled") {
          log.info("ticket hold kept: the payment got there first", { donationId: d.id, status });
          result.kept++;
          continue;
        }
      }
      if (await markExpired(db, d.id, minutes)) result.expired++;
    } catch (err) {
      log.warn("ticket hold expiry failed; will retry", { donationId: d.id, ...errorFields(err) });
      result.errors++;
    }
  }
  if (result.expired + result.kept + result.errors > 0) log.info("ticket holds checked", result);
  return result;
}

async function markExpired(db: Db, donationId: string, minutes: number): Promise<Donation | null> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(donations).where(eq(donations.id, donationId)).for("update");
    if (!locked || locked.status !== "PENDING") return null;
    return moveDonation(tx, locked, "FAILED", {
      timelineType: "ticket_hold.expired",
      data: { paymentIntentId: locked.paymentIntentId, holdMinutes: minutes },
      failureReason: ticketHoldExpiredReason(minutes),
    });
  });
}
