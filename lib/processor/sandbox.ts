import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { getDb } from "@/db";
import { donations } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { applyProcessorEvent } from "@/lib/services/processor/apply-processor-event";
import { chargeRefunded, customerSubscriptionDeleted, processorEvent, signedEvent } from "./event-factory";
import { cancelSandboxIntent, sandboxClientSecret } from "./sandbox-intents";
import {
  firstDonationOfSandboxSubscription,
  recordSandboxSubscriptionFact,
  SANDBOX_DEFAULT_PAYMENT_METHOD,
  SANDBOX_PRICE_CHANGED,
  SANDBOX_SETUP_CREATED,
  sandboxSetupClientSecret,
} from "./sandbox-subscriptions";
import { ProcessorError, type PaymentProcessor } from "./types";
import { verifyProcessorEvent } from "./verify-event";
import { getWebhookSecret } from "./webhook-secret";

export const sandboxId = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString("hex")}`;

/** A processor event of Stripe's envelope shape around `object`, with a sandbox event ID. */
export function sandboxEvent(type: Stripe.Event.Type, object: Record<string, unknown>, account?: string | null): Stripe.Event {
  return processorEvent(type, object, { eventId: sandboxId("evt"), account });
}

/**
 * Applies an event the sandbox reports, the way a real delivery is applied: signed with the
 * webhook secret, verified by the same check the webhook endpoint makes, then applied once in
 * its own transaction. Must not be called inside a database transaction.
 */
export async function deliverSandboxEvent(event: Stripe.Event): Promise<void> {
  const { payload, signature } = signedEvent(event, getWebhookSecret());
  try {
    const verified = await verifyProcessorEvent(payload, signature);
    await applyProcessorEvent(await getDb(), verified, sandboxProcessor);
  } catch (err) {
    throw new Error(`sandbox event ${event.type} was not accepted: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/**
 * The sandbox processor: Stripe's behaviour without Stripe. It issues `*_sandbox_*` IDs; the
 * outcome of a payment is decided when the donate page's sandbox card form confirms it
 * (lib/services/processor/sandbox-checkout.ts), which sends the events Stripe would.
 */
export class SandboxProcessor implements PaymentProcessor {
  readonly mode = "sandbox" as const;

  async createConnectedAccount() {
    return { accountId: sandboxId("acct") };
  }

  async createOnboardingLink(input: { accountId: string; orgId: string }) {
    return { url: `${getEnv().appUrl}/sandbox/onboarding/${input.accountId}` };
  }

  async createPaymentIntent() {
    const paymentIntentId = sandboxId("pi");
    return { paymentIntentId, clientSecret: sandboxClientSecret(paymentIntentId) };
  }

  async createSubscription(input: { productId: string | null }) {
    const paymentIntentId = sandboxId("pi");
    return {
      subscriptionId: sandboxId("sub"),
      customerId: sandboxId("cus"),
      productId: input.productId ?? sandboxId("prod"),
      paymentIntentId,
      clientSecret: sandboxClientSecret(paymentIntentId),
    };
  }

  async refundPayment(input: {
    paymentIntentId: string;
    donationId: string;
    amountCents: number;
    currency: string;
    chargeId: string | null;
  }) {
    const refundId = sandboxId("re");
    await deliverSandboxEvent(
      chargeRefunded({
        eventId: sandboxId("evt"),
        chargeId: input.chargeId ?? sandboxId("ch"),
        paymentIntentId: input.paymentIntentId,
        amountCents: input.amountCents,
        currency: input.currency,
        metadata: { donationId: input.donationId },
        refundId,
      }),
    );
    return { refundId };
  }

  /**
   * Stripe's cancel, decided under the donation's row lock against the sandbox card form (see
   * sandbox-intents.ts). Stripe would follow a cancel with `payment_intent.canceled`; the sandbox
   * leaves that event out, because its only caller (the expiry of unpaid donations) fails the
   * donation itself right after, and the event would only add a timeline entry.
   */
  async cancelPaymentIntent(input: { paymentIntentId: string; donationId: string }) {
    const db = await getDb();
    const status = await db.transaction(async (tx) => {
      const [donation] = await tx.select().from(donations).where(eq(donations.paymentIntentId, input.paymentIntentId)).for("update");
      if (!donation) throw new ProcessorError(`No such payment_intent: '${input.paymentIntentId}'`, "resource_missing");
      return cancelSandboxIntent(tx, donation);
    });
    return { status };
  }

  /**
   * Stripe's cancel voids an incomplete subscription's open first invoice, so its payment form
   * can no longer be paid: the first donation's intent is canceled the same way (a paid one is
   * left alone), then `customer.subscription.deleted` is sent.
   */
  async cancelSubscription(input: { subscriptionId: string }) {
    const db = await getDb();
    await db.transaction(async (tx) => {
      const [first] = await tx
        .select()
        .from(donations)
        .where(and(eq(donations.subscriptionId, input.subscriptionId), eq(donations.isRenewal, false)))
        .limit(1)
        .for("update");
      if (first?.paymentIntentId) await cancelSandboxIntent(tx, first);
    });
    await deliverSandboxEvent(customerSubscriptionDeleted({ eventId: sandboxId("evt"), subscriptionId: input.subscriptionId }));
  }

  /** The subscription's next renewals (POST /api/sandbox/subscriptions/:id/renew) charge the new amount. */
  async updateSubscriptionAmount(input: { subscriptionId: string; amountCents: number }) {
    const db = await getDb();
    const first = await firstDonationOfSandboxSubscription(db, input.subscriptionId);
    await recordSandboxSubscriptionFact(db, first.id, SANDBOX_PRICE_CHANGED, { unitAmountCents: input.amountCents, prorationBehavior: "none" });
  }

  /** A `seti_sandbox_…` intent for the sandbox card form; POST /api/sandbox/setup-intents/confirm confirms it. */
  async createSetupIntent(input: { subscriptionId: string; planId: string }) {
    const db = await getDb();
    const first = await firstDonationOfSandboxSubscription(db, input.subscriptionId);
    const setupIntentId = sandboxId("seti");
    await recordSandboxSubscriptionFact(db, first.id, SANDBOX_SETUP_CREATED, {
      setupIntentId,
      planId: input.planId,
      subscriptionId: input.subscriptionId,
      usage: "off_session",
    });
    return { setupIntentId, clientSecret: sandboxSetupClientSecret(setupIntentId) };
  }

  async setSubscriptionPaymentMethod(input: { subscriptionId: string; paymentMethodId: string }) {
    const db = await getDb();
    const first = await firstDonationOfSandboxSubscription(db, input.subscriptionId);
    await recordSandboxSubscriptionFact(db, first.id, SANDBOX_DEFAULT_PAYMENT_METHOD, { paymentMethodId: input.paymentMethodId });
  }

  async getInvoicePayment() {
    return { paymentIntentId: null, chargeId: null };
  }
}

const sandboxProcessor = new SandboxProcessor();
