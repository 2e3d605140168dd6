import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import type Stripe from "stripe";
import { getDb } from "@/db";
import { donations } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { webhookVerifier } from "./stripe-client";
import { cancelSandboxIntent, sandboxClientSecret } from "./sandbox-intents";
import { ProcessorError, type PaymentProcessor } from "./types";
import { getWebhookSecret } from "./webhook-secret";

const API_VERSION = "2026-10-28.endive";

export const sandboxId = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString("hex")}`;

/** A processor event of Stripe's envelope shape around `object`. */
export function sandboxEvent(type: string, object: Record<string, unknown>, account?: string | null): Stripe.Event {
  return {
    id: sandboxId("evt"),
    object: "event",
    api_version: API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
    ...(account ? { account } : {}),
  } as unknown as Stripe.Event;
}

/**
 * Sends a signed event to the webhook endpoint, through its route handler in this process: the
 * same signature check, parsing and transaction a real delivery gets. Must not be called inside
 * a database transaction (the handler opens its own).
 */
export async function deliverSandboxEvent(event: Stripe.Event): Promise<void> {
  const payload = JSON.stringify(event);
  const signature = webhookVerifier().webhooks.generateTestHeaderString({ payload, secret: getWebhookSecret() });
  const { POST } = await import("@/app/api/processor/webhooks/route");
  const req = new NextRequest(`${getEnv().appUrl}/api/processor/webhooks`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
  const res = await POST(req, { params: Promise.resolve({}) });
  if (res.status !== 200) throw new Error(`sandbox event ${event.type} was not accepted: ${res.status} ${await res.text()}`);
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

  async refundPayment(input: { paymentIntentId: string; donationId: string; amountCents: number; currency: string; chargeId: string | null }) {
    const refundId = sandboxId("re");
    const amount = input.amountCents;
    await deliverSandboxEvent(
      sandboxEvent("charge.refunded", {
        id: input.chargeId ?? sandboxId("ch"),
        object: "charge",
        amount,
        amount_refunded: amount,
        currency: input.currency,
        paid: true,
        refunded: true,
        status: "succeeded",
        payment_intent: input.paymentIntentId,
        metadata: { donationId: input.donationId },
        refunds: { object: "list", data: [{ id: refundId, object: "refund", amount, status: "succeeded" }], has_more: false },
      }),
    );
    return { refundId };
  }

  /**
   * Stripe's cancel, decided under the donation's row lock against the sandbox card form (see
   * sandbox-intents.ts). Stripe would follow a cancel with `payment_intent.canceled`; the sandbox
   * leaves that event out, because its only caller (the ticket-hold expiry) fails the donation
   * itself right after, and the event would only add a timeline entry.
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

  async cancelSubscription(input: { subscriptionId: string }) {
    await deliverSandboxEvent(
      sandboxEvent("customer.subscription.deleted", {
        id: input.subscriptionId,
        object: "subscription",
        status: "canceled",
        canceled_at: Math.floor(Date.now() / 1000),
      }),
    );
  }

  async getInvoicePayment() {
    return { paymentIntentId: null, chargeId: null };
  }
}
