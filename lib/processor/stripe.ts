import Stripe from "stripe";
import { getStripe } from "./stripe-client";
import { type ActiveSubscription, type PaymentProcessor, ProcessorError } from "./types";

type Input<M extends keyof PaymentProcessor> = PaymentProcessor[M] extends (input: infer I) => unknown ? I : never;
type Output<M extends keyof PaymentProcessor> = PaymentProcessor[M] extends (...args: never[]) => Promise<infer O> ? O : never;

/**
 * Express-equivalent controller properties. `type: "express"` is deprecated on Accounts v1 in
 * favour of `controller`; this is the set Stripe maps `type=express` to: the platform pays Stripe's
 * fees and carries negative-balance liability, Stripe collects requirements (hosted onboarding
 * through Account Links), and the organization gets the Express Dashboard.
 */
const EXPRESS_CONTROLLER: Stripe.AccountCreateParams.Controller = {
  fees: { payer: "application" },
  losses: { payments: "application" },
  requirement_collection: "stripe",
  stripe_dashboard: { type: "express" },
};

/**
 * Expanded on subscription create. Since 2025-03-31.basil the Invoice no longer has
 * `payment_intent`: the first invoice's client secret is `confirmation_secret.client_secret`
 * and its PaymentIntent is listed under `payments` (both expand-only fields).
 */
export const SUBSCRIPTION_EXPAND = ["latest_invoice.confirmation_secret", "latest_invoice.payments"] as const;

/** Event types that happen on a connected account, not on the platform: listed per account. */
export const CONNECT_EVENT_TYPES: readonly string[] = ["account.updated", "payout.paid", "payout.failed"];

/** Redacts anything that looks like a Stripe secret or restricted key, and the configured key itself. */
function redact(message: string, key: string | undefined): string {
  let out = message;
  if (key) out = out.split(key).join("[redacted]");
  return out.replace(/\b(sk|rk)_(live|test)_[A-Za-z0-9*]+/g, "$1_$2_[redacted]");
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

/** `pi_123_secret_abc` → `pi_123`; Stripe's PaymentIntent client secrets start with the intent's ID. */
function paymentIntentIdFromSecret(secret: string): string | null {
  const m = /^(pi_[A-Za-z0-9]+)_secret_/.exec(secret);
  return m ? m[1] : null;
}

/** The invoice payment to report: a paid one, else the default (open) one, else the newest. */
function pickPayment(payments: Stripe.InvoicePayment[]): Stripe.InvoicePayment | undefined {
  return payments.find((p) => p.status === "paid") ?? payments.find((p) => p.is_default) ?? payments[0];
}

export class StripeProcessor implements PaymentProcessor {
  readonly mode = "stripe" as const;
  readonly #client: Stripe | undefined;

  /** `client` defaults to the shared `getStripe()` client, resolved on each call. */
  constructor(client?: Stripe) {
    this.#client = client;
  }

  private get stripe(): Stripe {
    return this.#client ?? getStripe();
  }

  /** Runs a Stripe call, turning SDK errors into ProcessorErrors without any key material. */
  private async call<T>(what: string, fn: (stripe: Stripe) => Promise<T>): Promise<T> {
    const stripe = this.stripe;
    try {
      return await fn(stripe);
    } catch (err) {
      if (err instanceof ProcessorError) throw err;
      const key = process.env.STRIPE_SECRET_KEY;
      if (err instanceof Stripe.errors.StripeError) {
        const code = err.code ?? err.rawType ?? err.type ?? null;
        const message = redact(err.message || `Stripe ${what} failed`, key);
        throw new ProcessorError(message, code);
      }
      const message = err instanceof Error ? err.message : String(err);
      throw new ProcessorError(redact(`Stripe ${what} failed: ${message}`, key), null);
    }
  }

  async createConnectedAccount(input: Input<"createConnectedAccount">): Promise<Output<"createConnectedAccount">> {
    const params: Stripe.AccountCreateParams = {
      controller: EXPRESS_CONTROLLER,
      business_profile: { name: input.name },
      metadata: { orgId: input.orgId },
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    };
    if (input.email) params.email = input.email;
    if (input.country) params.country = input.country.toUpperCase();
    const account = await this.call("account creation", (s) => s.accounts.create(params));
    return { accountId: account.id };
  }

  async createOnboardingLink(input: Input<"createOnboardingLink">): Promise<Output<"createOnboardingLink">> {
    const link = await this.call("account link creation", (s) =>
      s.accountLinks.create({
        account: input.accountId,
        refresh_url: input.refreshUrl,
        return_url: input.returnUrl,
        type: "account_onboarding",
      }),
    );
    return { url: link.url };
  }

  async createPaymentIntent(input: Input<"createPaymentIntent">): Promise<Output<"createPaymentIntent">> {
    const params: Stripe.PaymentIntentCreateParams = {
      amount: input.amountCents,
      currency: input.currency.toLowerCase(),
      automatic_payment_methods: { enabled: true },
      transfer_data: { destination: input.destinationAccountId },
      receipt_email: input.email,
      description: input.description,
      metadata: { donationId: input.donationId, orgId: input.orgId, campaignId: input.campaignId },
    };
    if (input.applicationFeeCents > 0) params.application_fee_amount = input.applicationFeeCents;
    const intent = await this.call("payment intent creation", (s) =>
      s.paymentIntents.create(params, { idempotencyKey: `pi-${input.donationId}` }),
    );
    if (!intent.client_secret) {
      throw new ProcessorError(`PaymentIntent ${intent.id} has no client secret`, "missing_client_secret");
    }
    return { paymentIntentId: intent.id, clientSecret: intent.client_secret };
  }

  async createSubscription(input: Input<"createSubscription">): Promise<Output<"createSubscription">> {
    const metadata = { donationId: input.donationId, orgId: input.orgId, campaignId: input.campaignId };
    const currency = input.currency.toLowerCase();

    let productId = input.productId;
    if (!productId) {
      const product = await this.call("product creation", (s) =>
        s.products.create(
          { name: input.campaignTitle, metadata: { campaignId: input.campaignId, orgId: input.orgId } },
          { idempotencyKey: `product-${input.campaignId}` },
        ),
      );
      productId = product.id;
    }

    const customerParams: Stripe.CustomerCreateParams = { email: input.email, metadata };
    if (input.name) customerParams.name = input.name;
    const customer = await this.call("customer creation", (s) =>
      s.customers.create(customerParams, { idempotencyKey: `customer-${input.donationId}` }),
    );

    const product = productId;
    const params: Stripe.SubscriptionCreateParams = {
      customer: customer.id,
      items: [
        {
          price_data: {
            currency,
            product,
            unit_amount: input.amountCents,
            recurring: { interval: input.interval, ...(input.intervalCount > 1 ? { interval_count: input.intervalCount } : {}) },
          },
        },
      ],
      payment_behavior: "default_incomplete",
      payment_settings: { save_default_payment_method: "on_subscription" },
      transfer_data: { destination: input.destinationAccountId },
      metadata,
      expand: [...SUBSCRIPTION_EXPAND],
    };
    if (input.applicationFeePercent !== null) params.application_fee_percent = input.applicationFeePercent;
    const subscription = await this.call("subscription creation", (s) =>
      s.subscriptions.create(params, { idempotencyKey: `sub-${input.donationId}` }),
    );

    const invoice = subscription.latest_invoice;
    if (!invoice || typeof invoice === "string") {
      throw new ProcessorError(`Subscription ${subscription.id} came back without its first invoice`, "missing_invoice");
    }
    const clientSecret = invoice.confirmation_secret?.client_secret;
    if (!clientSecret) {
      throw new ProcessorError(`The first invoice of subscription ${subscription.id} has no confirmation secret`, "missing_client_secret");
    }
    const payment = pickPayment(invoice.payments?.data ?? []);
    const paymentIntentId =
      idOf(payment?.payment.payment_intent) ??
      (invoice.confirmation_secret?.type === "payment_intent" ? paymentIntentIdFromSecret(clientSecret) : null);

    return {
      subscriptionId: subscription.id,
      customerId: idOf(subscription.customer) ?? customer.id,
      productId: product,
      clientSecret,
      paymentIntentId,
    };
  }

  /**
   * A full refund by PaymentIntent. `amount` is left out on purpose (Stripe refunds whatever is
   * still refundable, so an earlier partial refund from the Dashboard doesn't make this fail), and
   * the intent already names its charge; `amountCents`/`currency`/`chargeId` serve the sandbox.
   * The transfer to the organization and the platform's application fee are reversed with it.
   */
  async refundPayment(input: Input<"refundPayment">): Promise<Output<"refundPayment">> {
    const refund = await this.call("refund", (s) =>
      s.refunds.create(
        {
          payment_intent: input.paymentIntentId,
          reverse_transfer: true,
          refund_application_fee: true,
          metadata: { donationId: input.donationId },
        },
        { idempotencyKey: `refund-${input.donationId}` },
      ),
    );
    return { refundId: refund.id };
  }

  /**
   * Cancels an unpaid PaymentIntent as `abandoned`. Stripe refuses to cancel one that already
   * succeeded or is processing (`payment_intent_unexpected_state`), and a second cancel of a
   * canceled one the same way: the intent is then read back and its status answered, so the
   * caller learns whether a payment got there first. Stripe sends `payment_intent.canceled` after
   * a cancel; the donation is FAILED by then and the event only adds to its timeline.
   */
  async cancelPaymentIntent(input: Input<"cancelPaymentIntent">): Promise<Output<"cancelPaymentIntent">> {
    try {
      const intent = await this.call("payment intent cancellation", (s) =>
        s.paymentIntents.cancel(
          input.paymentIntentId,
          { cancellation_reason: "abandoned" },
          { idempotencyKey: `pi-cancel-${input.donationId}` },
        ),
      );
      return { status: intent.status };
    } catch (err) {
      if (!(err instanceof ProcessorError) || err.code !== "payment_intent_unexpected_state") throw err;
      const intent = await this.call("payment intent lookup", (s) => s.paymentIntents.retrieve(input.paymentIntentId));
      return { status: intent.status };
    }
  }

  async cancelSubscription(input: Input<"cancelSubscription">): Promise<void> {
    await this.call("subscription cancellation", (s) => s.subscriptions.cancel(input.subscriptionId));
  }

  /**
   * Reads the subscription's item and replaces it with inline `price_data` of the same product,
   * currency and interval at the new amount, `proration_behavior: "none"`: the next invoice
   * charges the new amount and nothing is billed now. No idempotency key of our own (the SDK
   * adds one to its retries): a later change back to an earlier amount must not replay this one.
   */
  async updateSubscriptionAmount(input: Input<"updateSubscriptionAmount">): Promise<void> {
    const subscription = await this.call("subscription lookup", (s) => s.subscriptions.retrieve(input.subscriptionId));
    const item = subscription.items.data[0];
    const recurring = item?.price.recurring;
    if (!item || !recurring) {
      throw new ProcessorError(`Subscription ${input.subscriptionId} has no recurring item to change`, "missing_item");
    }
    const product = idOf(item.price.product);
    if (!product) throw new ProcessorError(`The item of subscription ${input.subscriptionId} has no product`, "missing_product");
    const priceData: Stripe.SubscriptionUpdateParams.Item.PriceData = {
      currency: item.price.currency,
      product,
      unit_amount: input.amountCents,
      recurring: { interval: recurring.interval, ...(recurring.interval_count > 1 ? { interval_count: recurring.interval_count } : {}) },
    };
    await this.call("subscription update", (s) =>
      s.subscriptions.update(input.subscriptionId, {
        items: [{ id: item.id, price_data: priceData }],
        proration_behavior: "none",
      }),
    );
  }

  /** A SetupIntent for the subscription's customer (read from the subscription), for off-session renewals. */
  async createSetupIntent(input: Input<"createSetupIntent">): Promise<Output<"createSetupIntent">> {
    const subscription = await this.call("subscription lookup", (s) => s.subscriptions.retrieve(input.subscriptionId));
    const customer = idOf(subscription.customer);
    if (!customer) throw new ProcessorError(`Subscription ${input.subscriptionId} has no customer`, "missing_customer");
    const intent = await this.call("setup intent creation", (s) =>
      s.setupIntents.create({
        customer,
        usage: "off_session",
        automatic_payment_methods: { enabled: true },
        metadata: { planId: input.planId, subscriptionId: input.subscriptionId },
      }),
    );
    if (!intent.client_secret) throw new ProcessorError(`SetupIntent ${intent.id} has no client secret`, "missing_client_secret");
    return { setupIntentId: intent.id, clientSecret: intent.client_secret };
  }

  async setSubscriptionPaymentMethod(input: Input<"setSubscriptionPaymentMethod">): Promise<void> {
    await this.call("subscription payment method update", (s) =>
      s.subscriptions.update(
        input.subscriptionId,
        { default_payment_method: input.paymentMethodId },
        { idempotencyKey: `sub-pm-${input.subscriptionId}-${input.paymentMethodId}` },
      ),
    );
  }

  async getInvoicePayment(input: Input<"getInvoicePayment">): Promise<Output<"getInvoicePayment">> {
    const options: Stripe.RequestOptions = input.accountId ? { stripeAccount: input.accountId } : {};
    const list = await this.call("invoice payment lookup", (s) =>
      s.invoicePayments.list({ invoice: input.invoiceId, limit: 10, expand: ["data.payment.payment_intent"] }, options),
    );
    const payment = pickPayment(list.data);
    if (!payment) return { paymentIntentId: null, chargeId: null };

    const pi = payment.payment.payment_intent;
    const directCharge = idOf(payment.payment.charge);
    if (!pi) return { paymentIntentId: null, chargeId: directCharge };
    if (typeof pi !== "string") {
      return { paymentIntentId: pi.id, chargeId: idOf(pi.latest_charge) ?? directCharge };
    }
    // Not expanded (older servers, mocks): fetch the intent for its latest charge.
    const intent = await this.call("payment intent lookup", (s) => s.paymentIntents.retrieve(pi, {}, options));
    return { paymentIntentId: intent.id, chargeId: idOf(intent.latest_charge) ?? directCharge };
  }

  /**
   * `GET /v1/events` since `since`, auto-paginated: first the platform's events (payments,
   * invoices, refunds and disputes of destination charges happen there), then each connected
   * account's own of the Connect types (`Stripe-Account`), which the platform's list leaves out.
   * Stripe keeps events for 30 days. Errors are ProcessorErrors, like every other call.
   */
  async *listEvents(input: Input<"listEvents">): AsyncGenerator<Stripe.Event> {
    const created = { gte: Math.floor(input.since.getTime() / 1000) };
    const pages: Array<{ types: string[]; options: Stripe.RequestOptions }> = [{ types: input.types, options: {} }];
    const connectTypes = input.types.filter((t) => CONNECT_EVENT_TYPES.includes(t));
    if (connectTypes.length > 0) {
      for (const account of input.accounts ?? []) pages.push({ types: connectTypes, options: { stripeAccount: account } });
    }
    for (const { types, options } of pages) {
      const params = { created, types: types as Stripe.EventListParams["types"], limit: 100 } as Stripe.EventListParams;
      try {
        for await (const event of this.stripe.events.list(params, options)) yield event;
      } catch (err) {
        await this.call("event listing", () => Promise.reject(err));
      }
    }
  }

  async *listActiveSubscriptions(input: { accountId: string }): AsyncGenerator<ActiveSubscription> {
    const list = this.stripe.subscriptions.list(
      { status: "active", limit: 100, expand: ["data.customer"] },
      { stripeAccount: input.accountId },
    );
    try {
      for await (const sub of list) {
        const price = sub.items.data[0]?.price;
        const customer =
          typeof sub.customer === "object" && !("deleted" in sub.customer && sub.customer.deleted)
            ? (sub.customer as Stripe.Customer)
            : null;
        yield {
          id: sub.id,
          customerEmail: customer?.email ?? null,
          customerName: customer?.name ?? null,
          amountCents: (price?.unit_amount ?? 0) * (sub.items.data[0]?.quantity ?? 1),
          currency: sub.currency,
          interval: price?.recurring?.interval ?? "month",
          intervalCount: price?.recurring?.interval_count ?? 1,
          startedAt: new Date((sub.start_date ?? sub.created) * 1000),
        };
      }
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError)
        throw new ProcessorError(redact(err.message, process.env.STRIPE_SECRET_KEY), err.code ?? null);
      throw err;
    }
  }

  async getPaymentIntent(input: Input<"getPaymentIntent">): Promise<Output<"getPaymentIntent">> {
    const pi = await this.call("payment intent lookup", (s) => s.paymentIntents.retrieve(input.paymentIntentId));
    return {
      id: pi.id,
      status: pi.status,
      amountCents: pi.amount,
      amountReceivedCents: pi.amount_received ?? 0,
      currency: pi.currency,
      chargeId: idOf(pi.latest_charge),
      donationId: pi.metadata?.donationId ?? null,
      lastPaymentError: pi.last_payment_error?.message ?? pi.last_payment_error?.code ?? null,
      cancellationReason: pi.cancellation_reason ?? null,
    };
  }
}
