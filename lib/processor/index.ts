import { getEnv } from "@/lib/env";
import type { PaymentProcessor } from "./types";

export type { PaymentProcessor } from "./types";
export { ProcessorError } from "./types";

const globalForProcessor = globalThis as unknown as { __goodfundProcessor?: { key: string; processor: Promise<PaymentProcessor> } };

/** Stripe in PAYMENTS_MODE=stripe, else the sandbox: one instance per process and configuration. */
export function getProcessor(): Promise<PaymentProcessor> {
  const env = getEnv();
  const key = `${env.paymentsMode === "stripe" ? env.STRIPE_SECRET_KEY : "sandbox"}|${env.STRIPE_API_HOST ?? ""}`;
  const cached = globalForProcessor.__goodfundProcessor;
  if (cached?.key === key) return cached.processor;
  const processor =
    env.paymentsMode === "stripe"
      ? import("./stripe").then((m) => new m.StripeProcessor() as PaymentProcessor)
      : import("./sandbox").then((m) => new m.SandboxProcessor() as PaymentProcessor);
  globalForProcessor.__goodfundProcessor = { key, processor };
  return processor;
}
