import { getDb } from "@/db";
import { getEnv } from "@/lib/env";
import { SandboxProcessor } from "@/lib/processor/sandbox";
import type { PaymentProcessor } from "@/lib/processor/types";
import { verifyProcessorEvent } from "@/lib/processor/verify-event";
import { applyProcessorEvent } from "./apply-processor-event";

let sandbox: SandboxProcessor | undefined;
let stripe: { key: string; processor: Promise<PaymentProcessor> } | undefined;

/**
 * This process's sandbox. The events it sends come back the way a Stripe delivery does: their
 * signature checked as the webhook endpoint checks it, then applied once (applyProcessorEvent).
 */
export function getSandboxProcessor(): SandboxProcessor {
  sandbox ??= new SandboxProcessor(async ({ payload, signature }) => {
    const event = await verifyProcessorEvent(payload, signature);
    await applyProcessorEvent(await getDb(), event, getSandboxProcessor());
  });
  return sandbox;
}

/** Stripe in PAYMENTS_MODE=stripe (one per secret key and API host), else the sandbox. */
export function getProcessor(): Promise<PaymentProcessor> {
  const env = getEnv();
  if (env.paymentsMode !== "stripe") return Promise.resolve(getSandboxProcessor());
  const key = `${env.STRIPE_SECRET_KEY}|${env.STRIPE_API_HOST ?? ""}`;
  if (stripe?.key !== key) stripe = { key, processor: import("@/lib/processor/stripe").then((m) => new m.StripeProcessor()) };
  return stripe.processor;
}
