import { randomBytes } from "node:crypto";
import { and, desc, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { getDb } from "@/db";
import { donations, organizations, recurringPlans, sandboxEvents } from "@/db/schema";
import { processorIntervalOf } from "@/lib/recurring-intervals";
import { getEnv } from "@/lib/env";
import { chargeRefunded, customerSubscriptionDeleted, processorEvent, signedEvent } from "./event-factory";
import { cancelSandboxIntent, sandboxClientSecret, sandboxIntentMarks } from "./sandbox-intents";
import {
  firstDonationOfSandboxSubscription,
  recordSandboxSubscriptionFact,
  SANDBOX_DEFAULT_PAYMENT_METHOD,
  SANDBOX_PRICE_CHANGED,
  SANDBOX_SETUP_CREATED,
  sandboxSetupClientSecret,
} from "./sandbox-subscriptions";
import { ProcessorError, type ActiveSubscription, type PaymentIntentState, type PaymentProcessor } from "./types";
import { getWebhookSecret } from "./webhook-secret";

export const sandboxId = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString("hex")}`;

/** A processor event of Stripe's envelope shape around `object`, with a sandbox event ID. */
export function sandboxEvent(type: Stripe.Event.Type, object: Record<string, unknown>, account?: string | null): Stripe.Event {
  return processorEvent(type, object, { eventId: sandboxId("evt"), account });
}

/**
 * The sandbox's event log, as Stripe keeps one: every event is written here before it is
 * delivered, so a delivery that never arrives can still be listed (listEvents) and reconciled.
 */
async function recordSandboxEvent(event: Stripe.Event): Promise<void> {
  const db = await getDb();
  await db
    .insert(sandboxEvents)
    .values({ id: event.id, type: event.type, accountId: event.account ?? null, payload: event as unknown as Record<string, unknown> })
    .onConflictDoNothing();
}

/**
 * Where the sandbox sends its events, signed as Stripe signs them: the webhook endpoint's path,
 * which verifies the signature and applies the event once before it answers. Supplied by whoever
 * makes the sandbox (the services), as a Stripe account is configured with its endpoint's URL;
 * a failure is the delivery's failure.
 */
export type SandboxWebhook = (delivery: { payload: string; signature: string }) => Promise<void>;

type DropRule = (event: Stripe.Event) => boolean;

/** Sandbox log rows read per page by listEvents. */
const LIST_PAGE = 500;

/**
 * The sandbox processor: Stripe's behaviour without Stripe. It issues `*_sandbox_*` IDs; the
 * outcome of a payment is decided when the donate page's sandbox card form confirms it
 * (lib/services/processor/sandbox-checkout.ts), which sends the events Stripe would.
 */
export class SandboxProcessor implements PaymentProcessor {
  readonly mode = "sandbox" as const;
  readonly #webhook: SandboxWebhook;
  #dropped: DropRule | null = null;

  constructor(webhook: SandboxWebhook) {
    this.#webhook = webhook;
  }

  /**
   * Reports an event as Stripe would: written to the sandbox's event log, then signed with the
   * webhook secret and sent to the webhook, which has applied it when this answers. Must not be
   * called inside a database transaction.
   */
  async sendEvent(event: Stripe.Event): Promise<void> {
    await recordSandboxEvent(event);
    if (this.#dropped?.(event)) return;
    const { payload, signature } = signedEvent(event, getWebhookSecret());
    try {
      await this.#webhook({ payload, signature });
    } catch (err) {
      throw new Error(`sandbox event ${event.type} was not accepted: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }

  /**
   * Test hook (not reachable from the API): while set, the sandbox logs the events `rule` picks
   * but does not send them, as if the webhook delivery were lost. `null` sends everything again.
   */
  dropDeliveries(rule: DropRule | null): void {
    this.#dropped = rule;
  }

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
    await this.sendEvent(
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
    await this.sendEvent(customerSubscriptionDeleted({ eventId: sandboxId("evt"), subscriptionId: input.subscriptionId }));
  }

  /** The subscription's next renewals (POST /api/sandbox/subscriptions/:id/renew) charge the new amount. */
  async updateSubscriptionAmount(input: { subscriptionId: string; amountCents: number }) {
    const db = await getDb();
    const first = await firstDonationOfSandboxSubscription(db, input.subscriptionId);
    await recordSandboxSubscriptionFact(db, first.id, SANDBOX_PRICE_CHANGED, {
      unitAmountCents: input.amountCents,
      prorationBehavior: "none",
    });
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

  /** The sandbox's event log since `since`, newest first, like Stripe's list (`accounts` is moot: one log holds all). */
  async *listEvents(input: { since: Date; types: string[] }): AsyncGenerator<Stripe.Event> {
    if (input.types.length === 0) return;
    const db = await getDb();
    let after: { createdAt: Date; id: string } | null = null;
    for (;;) {
      const page: Array<{ id: string; createdAt: Date; payload: Record<string, unknown> }> = await db
        .select({ id: sandboxEvents.id, createdAt: sandboxEvents.createdAt, payload: sandboxEvents.payload })
        .from(sandboxEvents)
        .where(
          and(
            gte(sandboxEvents.createdAt, input.since),
            inArray(sandboxEvents.type, input.types),
            after
              ? or(
                  lt(sandboxEvents.createdAt, after.createdAt),
                  and(eq(sandboxEvents.createdAt, after.createdAt), lt(sandboxEvents.id, after.id)),
                )
              : undefined,
          ),
        )
        .orderBy(desc(sandboxEvents.createdAt), desc(sandboxEvents.id))
        .limit(LIST_PAGE);
      for (const row of page) yield row.payload as unknown as Stripe.Event;
      if (page.length < LIST_PAGE) return;
      after = page[page.length - 1];
    }
  }

  /**
   * A sandbox PaymentIntent as Stripe would report it, from what the sandbox remembers: its
   * logged `payment_intent.*` events (the newest decides), else a cancel of its donation's intent.
   */
  /**
   * The sandbox's subscriptions billed for the account's organization that are still active:
   * each is a recurring gift made here (the sandbox has no others), so adopting finds them known.
   */
  async *listActiveSubscriptions(input: { accountId: string }): AsyncGenerator<ActiveSubscription> {
    const db = await getDb();
    const rows = await db
      .select({ first: donations, status: recurringPlans.status, interval: recurringPlans.interval, amount: recurringPlans.amount })
      .from(donations)
      .innerJoin(organizations, eq(organizations.id, donations.orgId))
      .innerJoin(recurringPlans, eq(recurringPlans.id, donations.recurringPlanId))
      .where(
        and(
          eq(organizations.processorAccountId, input.accountId),
          eq(donations.isRenewal, false),
          inArray(recurringPlans.status, ["ACTIVE", "PAST_DUE"]),
        ),
      );
    for (const { first, interval, amount } of rows) {
      if (!first.subscriptionId) continue;
      const every = processorIntervalOf(interval);
      yield {
        id: first.subscriptionId,
        customerEmail: first.email,
        customerName: [first.firstName, first.lastName].filter(Boolean).join(" ") || null,
        amountCents: amount,
        currency: first.currency,
        interval: every.interval,
        intervalCount: every.intervalCount,
        startedAt: first.createdAt,
      };
    }
  }

  async getPaymentIntent(input: { paymentIntentId: string }): Promise<PaymentIntentState> {
    const db = await getDb();
    const [donation] = await db.select().from(donations).where(eq(donations.paymentIntentId, input.paymentIntentId)).limit(1);
    const logged = await db
      .select({ payload: sandboxEvents.payload })
      .from(sandboxEvents)
      .where(
        and(
          inArray(sandboxEvents.type, ["payment_intent.succeeded", "payment_intent.payment_failed", "payment_intent.canceled"]),
          sql`${sandboxEvents.payload} #>> '{data,object,id}' = ${input.paymentIntentId}`,
        ),
      )
      .orderBy(desc(sandboxEvents.createdAt), desc(sandboxEvents.id));
    if (!donation && logged.length === 0) {
      throw new ProcessorError(`No such payment_intent: '${input.paymentIntentId}'`, "resource_missing");
    }
    const succeeded = logged
      .map((l) => (l.payload as unknown as Stripe.PaymentIntentSucceededEvent).data.object)
      .find((pi) => pi.status === "succeeded");
    const latest = logged[0] ? (logged[0].payload as unknown as Stripe.PaymentIntentSucceededEvent).data.object : undefined;
    const pi = succeeded ?? latest;
    const canceled = !succeeded && donation ? (await db.transaction((tx) => sandboxIntentMarks(tx, donation.id))).canceled : false;
    return {
      id: input.paymentIntentId,
      status: canceled ? "canceled" : (pi?.status ?? "requires_payment_method"),
      amountCents: pi?.amount ?? (donation ? donation.amount + donation.feeCents : 0),
      amountReceivedCents: pi?.amount_received ?? 0,
      currency: pi?.currency ?? donation?.currency ?? "usd",
      chargeId: typeof pi?.latest_charge === "string" ? pi.latest_charge : (pi?.latest_charge?.id ?? null),
      donationId: pi?.metadata?.donationId ?? donation?.id ?? null,
      lastPaymentError: pi?.last_payment_error?.message ?? null,
      cancellationReason: canceled ? (pi?.cancellation_reason ?? "abandoned") : null,
    };
  }
}
