import { eq } from "drizzle-orm";
import { tierSeatsFit } from "@/lib/services/events/ticket-tiers";
import type { Db } from "@/db";
import { campaigns, donations, organizations, type Donation } from "@/db/schema";
import { conflict, fieldError, notFound } from "@/lib/errors";
import {
  accountUpdated,
  chargeSucceeded,
  invoicePaymentSucceeded,
  paymentIntentPaymentFailed,
  paymentIntentSucceeded,
  type PaymentIntentInput,
} from "@/lib/processor/event-factory";
import { sandboxId } from "@/lib/processor/sandbox";
import { markSandboxIntent, paymentIntentOfSecret, SANDBOX_CONFIRMED, sandboxIntentMarks } from "@/lib/processor/sandbox-intents";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { getSandboxProcessor } from "./get-processor";
import { sandboxCard } from "./sandbox-renewals";

export const SANDBOX_CARDS = { succeeds: "4242424242424242", declines: "4000000000000002" } as const;
const DECLINE_MESSAGE = "Your card was declined.";

/**
 * The sandbox's card form: decides a pending payment's outcome by card number and sends the
 * events Stripe would send for it, signed, to the webhook endpoint. One-time gifts get
 * `payment_intent.succeeded` / `payment_intent.payment_failed`; a subscription's first payment
 * gets `invoice.payment_succeeded` (subscription_create) followed by the invoice's own
 * `payment_intent.succeeded`, which the webhook skips, exactly as with Stripe.
 *
 * The whole client secret must match the one issued (compared in constant time). Like Stripe,
 * it refuses an intent that was canceled (an expired ticket hold) or whose card was already
 * accepted; both are decided under the donation's row lock, against a concurrent cancel.
 */
export async function confirmSandboxPayment(db: Db, input: { clientSecret: string; cardNumber: string }): Promise<Donation> {
  const paymentIntentId = paymentIntentOfSecret(input.clientSecret);
  const [row] = paymentIntentId
    ? await db
        .select({ donation: donations, accountId: organizations.processorAccountId })
        .from(donations)
        .innerJoin(organizations, eq(organizations.id, donations.orgId))
        .where(eq(donations.paymentIntentId, paymentIntentId))
        .limit(1)
    : [];
  if (!row || !paymentIntentId) throw notFound("payment_not_found", "Payment not found");
  const d = row.donation;
  if (d.status !== "PENDING" && d.status !== "FAILED") throw conflict("payment_already_complete", "This payment is already complete");

  const card = input.cardNumber.replace(/[\s-]/g, "");
  if (card !== SANDBOX_CARDS.succeeds && card !== SANDBOX_CARDS.declines) {
    throw fieldError(
      "cardNumber",
      "In sandbox mode use 4242 4242 4242 4242 (succeeds) or 4000 0000 0000 0002 (declined)",
      "not_a_test_card",
      {
        values: [SANDBOX_CARDS.succeeds, SANDBOX_CARDS.declines],
      },
    );
  }
  await claimIntent(db, d.id, card === SANDBOX_CARDS.succeeds);
  const chargeId = sandboxId("ch");
  const intent = (): PaymentIntentInput => ({
    eventId: sandboxId("evt"),
    paymentIntentId,
    amountCents: d.amount + d.feeCents,
    currency: d.currency,
    chargeId,
    destination: row.accountId,
    metadata: d.subscriptionId ? {} : { donationId: d.id, orgId: d.orgId, campaignId: d.campaignId },
  });

  if (card === SANDBOX_CARDS.declines) {
    await getSandboxProcessor().sendEvent(paymentIntentPaymentFailed({ ...intent(), error: { message: DECLINE_MESSAGE } }));
  } else if (d.subscriptionId) {
    await getSandboxProcessor().sendEvent(sandboxInvoice(d, d.subscriptionId, "subscription_create", paymentIntentId, chargeId));
    await getSandboxProcessor().sendEvent(paymentIntentSucceeded(intent()));
    await getSandboxProcessor().sendEvent(
      chargeSucceeded({
        eventId: sandboxId("evt"),
        chargeId,
        paymentIntentId,
        amountCents: d.amount + d.feeCents,
        currency: d.currency,
        card: sandboxCard(),
      }),
    );
  } else {
    await getSandboxProcessor().sendEvent(paymentIntentSucceeded(intent()));
  }
  const [after] = await db.select().from(donations).where(eq(donations.id, d.id));
  return after;
}

/**
 * Takes the intent for this confirmation under the donation's row lock: a canceled intent is a
 * 409, and so is another card for one whose card was already accepted (its success is on its
 * way; the same success may be sent again while the donation is still PENDING). An accepted
 * card is recorded before the lock is released, so a cancel that comes next is refused. A
 * declined donation that holds event tickets is still PENDING (its seats stay its own until the
 * hold expires), so its retry needs nothing more. A retry of a FAILED donation makes it PENDING
 * again; one with tickets (released when it failed) takes them back under the campaign's row
 * lock, so a retry never oversells (409 `Sold out`).
 */
async function claimIntent(db: Db, donationId: string, accepted: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(donations).where(eq(donations.id, donationId)).for("update");
    const marks = await sandboxIntentMarks(tx, donationId);
    if (marks.canceled) throw conflict("payment_canceled", "This payment was canceled; please start a new donation");
    if (locked.status !== "PENDING" && locked.status !== "FAILED")
      throw conflict("payment_already_complete", "This payment is already complete");
    // An accepted card whose success did not arrive (its delivery failed) may be sent again.
    if (marks.confirmed) {
      if (!accepted || locked.status !== "PENDING") throw conflict("payment_already_complete", "This payment is already complete");
      return;
    }
    if (locked.status === "FAILED") {
      if (locked.tickets) {
        const [c] = await tx
          .select({ sold: campaigns.ticketsSold, capacity: campaigns.ticketCapacity })
          .from(campaigns)
          .where(eq(campaigns.id, locked.campaignId))
          .for("update");
        if (c.capacity !== null && c.sold + locked.tickets > c.capacity) throw conflict("sold_out", "Sold out");
        if (locked.ticketOrder && !(await tierSeatsFit(tx, locked.campaignId, locked.ticketOrder))) throw conflict("sold_out", "Sold out");
      }
      await moveDonation(tx, locked, "PENDING", { timelineType: "payment.retried", failureReason: null });
    }
    if (accepted) await markSandboxIntent(tx, locked, SANDBOX_CONFIRMED);
  });
}

/** `invoice.payment_succeeded` for a paid invoice of the subscription, in Stripe's current shape. */
function sandboxInvoice(
  d: Pick<Donation, "amount" | "feeCents" | "currency">,
  subscriptionId: string,
  billingReason: string,
  paymentIntentId: string,
  chargeId: string,
) {
  return invoicePaymentSucceeded({
    eventId: sandboxId("evt"),
    invoiceId: sandboxId("in"),
    invoicePaymentId: sandboxId("inpay"),
    subscriptionId,
    billingReason,
    amountPaidCents: d.amount + d.feeCents,
    currency: d.currency,
    paymentIntentId,
    chargeId,
  });
}

/** Sandbox stand-in for finishing Stripe's hosted onboarding: the account can now charge and pay out. */
export async function completeSandboxOnboarding(db: Db, accountId: string): Promise<void> {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.processorAccountId, accountId))
    .limit(1);
  if (!org || !accountId.startsWith("acct_sandbox_")) throw notFound("account_not_found", "Account not found");
  await getSandboxProcessor().sendEvent(
    accountUpdated({ eventId: sandboxId("evt"), accountId, chargesEnabled: true, payoutsEnabled: true }),
  );
}
