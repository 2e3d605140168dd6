import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/db";
import { donationEvents, planInvoiceFailures, type Donation } from "@/db/schema";
import { conflict, notFound } from "@/lib/errors";
import {
  chargeSucceeded,
  customerSubscriptionDeleted,
  invoicePaymentFailed,
  invoicePaymentSucceeded,
  type ChargeCard,
} from "@/lib/processor/event-factory";
import { sandboxId } from "@/lib/processor/sandbox";
import {
  findFirstDonationOfSandboxSubscription,
  recordSandboxSubscriptionFact,
  SANDBOX_DEFAULT_PAYMENT_METHOD,
  sandboxSubscriptionUnitAmount,
} from "@/lib/processor/sandbox-subscriptions";
import { getSandboxProcessor } from "./get-processor";

/** The sandbox's "this card now declines" switch for a subscription (POST …/fail-next-renewal). */
export const SANDBOX_CARD_DECLINES = "sandbox.card_declines";

/** Attempts at one invoice before the sandbox gives up and ends the subscription, as Stripe's default retry schedule. */
export const SANDBOX_MAX_ATTEMPTS = 4;
/** Days between the sandbox's attempts at an unpaid invoice. */
const RETRY_DAYS = 3;

/** The card the sandbox reports on its charges: the test card, good for three more years. */
export function sandboxCard(now = new Date()): ChargeCard {
  return { brand: "visa", last4: "4242", expMonth: 12, expYear: now.getUTCFullYear() + 3 };
}

export type SandboxRenewalOutcome = "paid" | "failed" | "canceled";

/** Whether the subscription's card declines: it was switched to decline after its latest new card was saved. */
async function cardDeclines(db: Db, first: Donation): Promise<boolean> {
  const [latest] = await db
    .select({ type: donationEvents.type })
    .from(donationEvents)
    .where(
      and(eq(donationEvents.donationId, first.id), inArray(donationEvents.type, [SANDBOX_CARD_DECLINES, SANDBOX_DEFAULT_PAYMENT_METHOD])),
    )
    .orderBy(desc(donationEvents.id))
    .limit(1);
  return latest?.type === SANDBOX_CARD_DECLINES;
}

async function firstPaidDonation(db: Db, subscriptionId: string): Promise<Donation> {
  const first = await findFirstDonationOfSandboxSubscription(db, subscriptionId);
  if (!first) throw notFound("subscription_not_found", "Subscription not found");
  if (first.status !== "SUCCEEDED") throw conflict("first_payment_pending", "The subscription's first payment has not succeeded");
  return first;
}

/** Sandbox control: the subscription's card declines from its next renewal on, until the donor saves a new card. */
export async function failNextSandboxRenewal(db: Db, subscriptionId: string): Promise<void> {
  const first = await firstPaidDonation(db, subscriptionId);
  await recordSandboxSubscriptionFact(db, first.id, SANDBOX_CARD_DECLINES, { declines: true });
}

/**
 * Sandbox stand-in for a subscription's next billing attempt. An invoice the card failed to pay
 * is attempted again (the same invoice, its next attempt); otherwise a new cycle's invoice. With a
 * card that declines: `invoice.payment_failed` with the next attempt RETRY_DAYS later, and at the
 * SANDBOX_MAX_ATTEMPTS-th failure none, followed by `customer.subscription.deleted` (reason
 * `payment_failed`), as Stripe ends a subscription whose retries ran out. With a good card: the
 * invoice's `invoice.payment_succeeded` and its charge's `charge.succeeded`.
 */
export async function renewSandboxSubscription(db: Db, subscriptionId: string): Promise<SandboxRenewalOutcome> {
  const first = await firstPaidDonation(db, subscriptionId);
  // What the subscription charges now: its first invoice's amount, or the price it was changed to since.
  const amount = await sandboxSubscriptionUnitAmount(db, first);
  const [open] = first.recurringPlanId
    ? await db
        .select()
        .from(planInvoiceFailures)
        .where(
          and(
            eq(planInvoiceFailures.planId, first.recurringPlanId),
            isNull(planInvoiceFailures.recoveredAt),
            isNull(planInvoiceFailures.lostAt),
          ),
        )
        .orderBy(desc(planInvoiceFailures.failedAt))
        .limit(1)
    : [];
  const invoiceId = open?.invoiceId ?? sandboxId("in");
  const due = open?.amountDueCents ?? amount;
  const processor = getSandboxProcessor();
  const paymentIntentId = sandboxId("pi");
  const chargeId = sandboxId("ch");

  if (await cardDeclines(db, first)) {
    const attemptCount = (open?.attemptCount ?? 0) + 1;
    const last = attemptCount >= SANDBOX_MAX_ATTEMPTS;
    await processor.sendEvent(
      invoicePaymentFailed({
        eventId: sandboxId("evt"),
        invoiceId,
        subscriptionId,
        amountDueCents: due,
        currency: first.currency,
        attemptCount,
        nextPaymentAttempt: last ? null : Math.floor(Date.now() / 1000) + RETRY_DAYS * 86_400,
        paymentIntentId,
        chargeId,
      }),
    );
    if (!last) return "failed";
    await processor.sendEvent(
      customerSubscriptionDeleted({ eventId: sandboxId("evt"), subscriptionId, cancellationReason: "payment_failed" }),
    );
    return "canceled";
  }
  await processor.sendEvent(
    invoicePaymentSucceeded({
      eventId: sandboxId("evt"),
      invoiceId,
      invoicePaymentId: sandboxId("inpay"),
      subscriptionId,
      billingReason: "subscription_cycle",
      amountPaidCents: due,
      currency: first.currency,
      paymentIntentId,
      chargeId,
    }),
  );
  await processor.sendEvent(
    chargeSucceeded({
      eventId: sandboxId("evt"),
      chargeId,
      paymentIntentId,
      amountCents: due,
      currency: first.currency,
      card: sandboxCard(),
    }),
  );
  return "paid";
}
