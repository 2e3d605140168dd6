import type Stripe from "stripe";

/**
 * The payment processor as the services see it. Two implementations share this interface and
 * one code path: Stripe (Connect destination charges) and the sandbox, which issues
 * `acct_sandbox_…`/`pi_sandbox_…`/`sub_sandbox_…` IDs and reports outcomes by sending signed
 * events of Stripe's shapes to the same webhook endpoint. Never call these inside a database
 * transaction: they may take a network round trip, and the sandbox re-enters the webhook path.
 */
export interface PaymentProcessor {
  readonly mode: "stripe" | "sandbox";

  /** An Express connected account for an organization's payouts. */
  createConnectedAccount(input: { orgId: string; email: string | null; name: string; country?: string }): Promise<{ accountId: string }>;

  /** A one-time onboarding URL for the account (Stripe Account Link, or the sandbox's page). */
  createOnboardingLink(input: { accountId: string; orgId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string }>;

  /**
   * A PaymentIntent for a one-time gift: a destination charge to the organization's account,
   * with `metadata.donationId`. `amountCents` is what the card is charged.
   */
  createPaymentIntent(input: {
    donationId: string;
    orgId: string;
    campaignId: string;
    amountCents: number;
    currency: string;
    destinationAccountId: string;
    applicationFeeCents: number;
    email: string;
    description: string;
  }): Promise<{ paymentIntentId: string; clientSecret: string }>;

  /**
   * A subscription for a recurring gift, with inline `price_data` on the campaign's product
   * (created when `productId` is null and returned so the caller can keep it), a customer for the
   * donor, destination to the organization's account, `metadata.donationId`, and
   * `payment_behavior: default_incomplete` so the first invoice is paid through the payment form.
   */
  createSubscription(input: {
    donationId: string;
    orgId: string;
    campaignId: string;
    campaignTitle: string;
    productId: string | null;
    amountCents: number;
    currency: string;
    /** Stripe's `recurring.interval`; `intervalCount` 3 with "month" bills a quarter. */
    interval: "week" | "month" | "year";
    intervalCount: number;
    destinationAccountId: string;
    applicationFeePercent: number | null;
    email: string;
    name: string | null;
  }): Promise<{ subscriptionId: string; customerId: string; productId: string; clientSecret: string; paymentIntentId: string | null }>;

  /** Refunds a payment in full; the donation's status follows the processor's `charge.refunded` event. */
  refundPayment(input: {
    paymentIntentId: string;
    donationId: string;
    /** What was charged (gift plus covered fees) and the charge, as we recorded them. */
    amountCents: number;
    currency: string;
    chargeId: string | null;
  }): Promise<{ refundId: string }>;

  /**
   * Cancels a one-time payment that has not been paid (an abandoned checkout whose ticket hold
   * expired), so it can never be confirmed afterwards. Answers the PaymentIntent's status after
   * the attempt: `canceled` (now or earlier) means no payment can follow; any other status
   * (`succeeded`, `processing`, `requires_capture`) means the payment got there first and its
   * own event will settle the donation. Network and authentication failures throw.
   */
  cancelPaymentIntent(input: { paymentIntentId: string; donationId: string }): Promise<{ status: PaymentIntentStatus }>;

  /** Cancels a subscription now; `customer.subscription.deleted` follows. */
  cancelSubscription(input: { subscriptionId: string }): Promise<void>;

  /**
   * Changes what a subscription charges from its next invoice on: its one item becomes
   * `amountCents` a cycle on the same product, currency and interval, with no proration (nothing
   * is charged or credited now).
   */
  updateSubscriptionAmount(input: { subscriptionId: string; amountCents: number }): Promise<void>;

  /**
   * Starts replacing a subscription's card: a SetupIntent for the subscription's customer, for
   * off-session use, with `metadata.planId` and `metadata.subscriptionId`. The card form confirms
   * it with the client secret; the processor's `setup_intent.succeeded` then makes the card the
   * subscription's default (setSubscriptionPaymentMethod).
   */
  createSetupIntent(input: { subscriptionId: string; planId: string }): Promise<{ setupIntentId: string; clientSecret: string }>;

  /** Makes a payment method the subscription's `default_payment_method`: its next invoices charge it. */
  setSubscriptionPaymentMethod(input: { subscriptionId: string; paymentMethodId: string }): Promise<void>;

  /**
   * The payment of an invoice (current webhook payloads may omit it): its PaymentIntent and
   * charge IDs, so a renewal's disputes can be matched.
   */
  getInvoicePayment(input: {
    invoiceId: string;
    accountId: string | null;
  }): Promise<{ paymentIntentId: string | null; chargeId: string | null }>;

  /**
   * The events the processor sent since `since` (inclusive) of the given types, newest first,
   * page by page (reconciliation compares them with `processed_events`). Stripe: the platform's
   * events, then each of `accounts`' own (the connected-account events, `account.updated` and
   * payouts, are listed only with their account). The sandbox: its own event log.
   */
  listEvents(input: { since: Date; types: string[]; accounts?: string[] }): AsyncIterable<Stripe.Event>;

  /**
   * The active subscriptions billed on the organization's connected account (those it ran before
   * Goodfund), page after page: Stripe lists them with the `Stripe-Account` header and the SDK's
   * auto-pagination; the sandbox answers its own subscriptions of that account.
   */
  listActiveSubscriptions(input: { accountId: string }): AsyncIterable<ActiveSubscription>;

  /** A PaymentIntent as the processor has it now, for settling a payment whose events were missed. */
  getPaymentIntent(input: { paymentIntentId: string }): Promise<PaymentIntentState>;
}

/** An active subscription as adopting it needs it: who pays, how much, how often. */
export type ActiveSubscription = {
  id: string;
  customerEmail: string | null;
  customerName: string | null;
  amountCents: number;
  currency: string;
  /** Stripe's `recurring.interval` (day, week, month, year). */
  interval: string;
  intervalCount: number;
  startedAt: Date;
};

/** What settling a payment needs to know about its PaymentIntent. */
export type PaymentIntentState = {
  id: string;
  status: PaymentIntentStatus;
  amountCents: number;
  amountReceivedCents: number;
  currency: string;
  /** The charge of the latest attempt. */
  chargeId: string | null;
  /** `metadata.donationId` (one-time gifts). */
  donationId: string | null;
  /** The decline message of the last failed attempt, if any. */
  lastPaymentError: string | null;
  cancellationReason: string | null;
};

/** The states of a PaymentIntent, as Stripe names them (and any it may add later). */
export type PaymentIntentStatus =
  | (string & {})
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "requires_capture"
  | "canceled"
  | "succeeded";

export class ProcessorError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = "ProcessorError";
  }
}
