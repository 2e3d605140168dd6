import { and, eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { donationEvents, donations, recurringPlans } from "@/db/schema";
import { errorFields, log } from "@/lib/log";
import { ProcessorError, type PaymentProcessor } from "@/lib/processor/types";
import type { EventOutcome, EventSource } from "@/lib/services/processor/event-outcome";
import { forgetPlanCard } from "@/lib/services/recurring/record-plan-card";

/** A confirmed SetupIntent of a plan's card change, and whether its card is now the subscription's default. */
export type PaymentMethodSetupResult = {
  planId: string;
  subscriptionId: string;
  paymentMethodId: string;
  /** false: the processor refused (the subscription has ended since); nothing to retry. */
  isDefault: boolean;
} | null;

/** Processor refusals that a retry of the event would only repeat (a canceled or missing subscription). */
const FINAL_REFUSALS = new Set(["resource_missing", "invalid_request_error"]);

/**
 * Before the event's transaction: a SetupIntent made by startPaymentMethodChange (its metadata
 * names the plan and subscription) succeeded, so its card becomes the subscription's
 * `default_payment_method`. Setting it again on a redelivery is harmless. A SetupIntent of
 * anything else is left alone (null). Network failures throw, so the processor retries the event.
 */
export async function setDefaultPaymentMethodOfSetup(
  setupIntent: { metadata?: Record<string, string> | null; payment_method?: string | { id: string } | null; status?: string },
  processor: PaymentProcessor,
): Promise<PaymentMethodSetupResult> {
  const planId = setupIntent.metadata?.planId;
  const subscriptionId = setupIntent.metadata?.subscriptionId;
  const pm = setupIntent.payment_method;
  const paymentMethodId = typeof pm === "string" ? pm : (pm?.id ?? null);
  if (!planId || !subscriptionId || !paymentMethodId || setupIntent.status !== "succeeded") return null;
  try {
    await processor.setSubscriptionPaymentMethod({ subscriptionId, paymentMethodId });
    return { planId, subscriptionId, paymentMethodId, isDefault: true };
  } catch (err) {
    if (!(err instanceof ProcessorError) || !err.code || !FINAL_REFUSALS.has(err.code)) throw err;
    log.warn("the processor refused a plan's new card as its default", { planId, subscriptionId, ...errorFields(err) });
    return { planId, subscriptionId, paymentMethodId, isDefault: false };
  }
}

/**
 * In the event's transaction: the card change goes on the timeline of the plan's first donation
 * (`setup_intent.succeeded`, with the payment method and whether it became the default), so
 * staff see when the donor replaced their card. Ignored when no plan has that subscription.
 */
export async function recordPaymentMethodSetup(tx: Tx, source: EventSource, result: PaymentMethodSetupResult): Promise<EventOutcome> {
  if (!result) return "ignored";
  const [first] = await tx
    .select({ id: donations.id })
    .from(donations)
    .innerJoin(recurringPlans, eq(recurringPlans.id, donations.recurringPlanId))
    .where(
      and(eq(recurringPlans.id, result.planId), eq(recurringPlans.subscriptionId, result.subscriptionId), eq(donations.isRenewal, false)),
    )
    .limit(1);
  if (!first) return "ignored";
  await tx.insert(donationEvents).values({
    donationId: first.id,
    type: source.type,
    processorEventId: source.id,
    data: { planId: result.planId, paymentMethodId: result.paymentMethodId, defaultPaymentMethod: result.isDefault },
  });
  if (result.isDefault) await forgetPlanCard(tx, result.planId);
  return "applied";
}
