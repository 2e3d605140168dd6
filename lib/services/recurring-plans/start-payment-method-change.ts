import type { RecurringPlan } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { AppError, processorUnavailable } from "@/lib/errors";
import { errorFields, log } from "@/lib/log";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";
import { assertPlanRunning } from "./change-plan-amount";

export type PaymentMethodSetup = {
  mode: "stripe" | "sandbox";
  setupIntentId: string;
  clientSecret: string;
  publishableKey: string | null;
};

/**
 * Starts replacing a running plan's card: a SetupIntent for its subscription's customer
 * (`usage: off_session`, `metadata.planId`/`subscriptionId`), whose client secret the card form
 * confirms (Stripe's Payment Element, or the sandbox card form). Nothing changes until then:
 * the processor's `setup_intent.succeeded` makes the confirmed card the subscription's default
 * (see applyPaymentMethodSetup), so the change holds even if the donor's page closes right after
 * confirming. In Stripe mode without a publishable key no form could be shown: 503.
 */
export async function startPaymentMethodChange(processor: PaymentProcessor, plan: RecurringPlan): Promise<PaymentMethodSetup> {
  assertPlanRunning(plan);
  const publishableKey = processor.mode === "stripe" ? (getEnv().STRIPE_PUBLISHABLE_KEY ?? null) : null;
  if (processor.mode === "stripe" && !publishableKey) {
    throw new AppError("service_unavailable", "Card changes are not available right now");
  }
  try {
    const intent = await processor.createSetupIntent({ subscriptionId: plan.subscriptionId, planId: plan.id });
    return { mode: processor.mode, setupIntentId: intent.setupIntentId, clientSecret: intent.clientSecret, publishableKey };
  } catch (err) {
    if (!(err instanceof ProcessorError)) throw err;
    log.warn("setup intent creation failed at the processor", { planId: plan.id, ...errorFields(err) });
    throw processorUnavailable();
  }
}
