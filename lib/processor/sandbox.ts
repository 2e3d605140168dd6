import { randomBytes } from "node:crypto";
import { NextRequest } from "next/server";
import type Stripe from "stripe";
import { getEnv } from "@/lib/env";
import { webhookVerifier } from "./stripe-client";
import type { PaymentProcessor } from "./types";
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
    return { paymentIntentId, clientSecret: `${paymentIntentId}_secret_${randomBytes(12).toString("hex")}` };
  }

  async createSubscription(input: { productId: string | null }) {
    const paymentIntentId = sandboxId("pi");
    return {
      subscriptionId: sandboxId("sub"),
      customerId: sandboxId("cus"),
      productId: input.productId ?? sandboxId("prod"),
      paymentIntentId,
      clientSecret: `${paymentIntentId}_secret_${randomBytes(12).toString("hex")}`,
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
