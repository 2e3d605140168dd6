import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import { signPayload } from "./webhook-signature";

export { signPayload };

/**
 * Processor events of Stripe's shapes, built from the facts they report: the one place Goodfund
 * makes events of its own. The sandbox sends them in place of Stripe; the integration tests (over
 * the realistic payloads in tests/fixtures/processor), the reliability runs and the benchmark
 * send them to the webhook endpoint. Each object carries at least every field the event handlers
 * read, under the keys and at the paths Stripe uses (a test compares them with recorded events).
 * Nothing here reads the environment, so scripts outside the app can use it.
 */

export const EVENT_API_VERSION = "2026-10-28.endive";
/** The last API version whose invoices carry `subscription`, `payment_intent` and `charge` at the top level. */
export const LEGACY_INVOICE_API_VERSION = "2024-06-20";

const ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A Stripe-looking ID: `processorId("pi")` → `pi_` + 24 alphanumerics (a prefix ending in `_` or a digit is kept as is). */
export function processorId(prefix: string): string {
  let out = prefix.endsWith("_") || /_\d$/.test(prefix) ? prefix : `${prefix}_`;
  for (const b of randomBytes(24)) out += ALNUM[b % ALNUM.length];
  return out;
}

const now = () => Math.floor(Date.now() / 1000);

export type EnvelopeOptions = {
  /** The event's ID; a fresh `evt_…` by default. */
  eventId?: string;
  /** The connected account the event happened on (Connect events). */
  account?: string | null;
  /** Unix seconds; now by default. */
  created?: number;
  apiVersion?: string;
};

type EventOf<T extends Stripe.Event.Type> = Extract<Stripe.Event, { type: T }>;

/** An event of Stripe's envelope around `object`. */
export function processorEvent<T extends Stripe.Event.Type>(
  type: T,
  object: Record<string, unknown>,
  opts: EnvelopeOptions = {},
): EventOf<T> {
  return {
    id: opts.eventId ?? processorId("evt"),
    object: "event",
    api_version: opts.apiVersion ?? EVENT_API_VERSION,
    created: opts.created ?? now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
    ...(opts.account ? { account: opts.account } : {}),
  } as unknown as EventOf<T>;
}

/** The signed request body and `Stripe-Signature` header of an event, as Stripe sends it. */
export function signedEvent(event: Stripe.Event, secret: string, timestamp?: number): { payload: string; signature: string } {
  const payload = JSON.stringify(event);
  return { payload, signature: signPayload(payload, secret, timestamp) };
}

// ---------------------------------------------------------------------------------------------
// Payments (PaymentIntents)

export type PaymentIntentInput = EnvelopeOptions & {
  paymentIntentId: string;
  /** What the card is charged, in cents. */
  amountCents: number;
  currency: string;
  /** The donation's IDs (`donationId`, ...); a subscription's PaymentIntent has none. */
  metadata: Record<string, string>;
  /** The charge of the attempt (`latest_charge`). */
  chargeId?: string | null;
  /** The organization's connected account the charge goes to (`transfer_data.destination`). */
  destination?: string | null;
  clientSecret?: string;
  description?: string | null;
};

function paymentIntent(input: PaymentIntentInput, status: Stripe.PaymentIntent.Status, fields: Record<string, unknown> = {}) {
  const created = (input.created ?? now()) - 30;
  return {
    id: input.paymentIntentId,
    object: "payment_intent",
    amount: input.amountCents,
    amount_capturable: 0,
    amount_received: status === "succeeded" ? input.amountCents : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: { allow_redirects: "always", enabled: true },
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: input.clientSecret ?? `${input.paymentIntentId}_secret_${randomBytes(8).toString("hex")}`,
    confirmation_method: "automatic",
    created,
    currency: input.currency,
    customer: null,
    description: input.description ?? null,
    last_payment_error: null,
    latest_charge: input.chargeId ?? null,
    livemode: false,
    metadata: input.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: processorId("pm"),
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    processing: null,
    receipt_email: null,
    setup_future_usage: null,
    shipping: null,
    statement_descriptor: null,
    status,
    transfer_data: input.destination ? { destination: input.destination } : null,
    transfer_group: null,
    ...fields,
  };
}

/** `payment_intent.succeeded`: the whole amount received. */
export function paymentIntentSucceeded(input: PaymentIntentInput) {
  return processorEvent("payment_intent.succeeded", paymentIntent(input, "succeeded"), input);
}

export type PaymentError = { type?: string; code?: string; decline_code?: string; message?: string } & Record<string, unknown>;

/** `payment_intent.payment_failed`: a declined card; the PaymentIntent stays payable (`requires_payment_method`). */
export function paymentIntentPaymentFailed(input: PaymentIntentInput & { error?: PaymentError }) {
  const error = {
    type: "card_error",
    code: "card_declined",
    decline_code: "generic_decline",
    message: "Your card was declined.",
    ...(input.chargeId ? { charge: input.chargeId } : {}),
    ...input.error,
  };
  return processorEvent(
    "payment_intent.payment_failed",
    paymentIntent(input, "requires_payment_method", { last_payment_error: error }),
    input,
  );
}

/** `payment_intent.canceled`: the PaymentIntent can never be paid. */
export function paymentIntentCanceled(
  input: PaymentIntentInput & { cancellationReason?: Stripe.PaymentIntent.CancellationReason | null; canceledAt?: number },
) {
  const fields = { cancellation_reason: input.cancellationReason ?? null, canceled_at: input.canceledAt ?? now() };
  return processorEvent("payment_intent.canceled", paymentIntent(input, "canceled", fields), input);
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

export type InvoiceInput = EnvelopeOptions & {
  invoiceId: string;
  subscriptionId: string;
  billingReason: "subscription_create" | "subscription_cycle" | (string & {});
  amountPaidCents: number;
  currency: string;
  paymentIntentId: string | null;
  chargeId: string | null;
  /** `current`: `parent.subscription_details` and `payments`; `legacy` (API versions before 2025): top-level `subscription`, `payment_intent`, `charge`. */
  shape?: "current" | "legacy";
  invoicePaymentId?: string;
};

/** `invoice.payment_succeeded` for a subscription's invoice (its first payment or a renewal). */
export function invoicePaymentSucceeded(input: InvoiceInput) {
  const paid = input.amountPaidCents;
  const invoice: Record<string, unknown> = {
    id: input.invoiceId,
    object: "invoice",
    amount_due: paid,
    amount_paid: paid,
    amount_remaining: 0,
    billing_reason: input.billingReason,
    currency: input.currency,
    livemode: false,
    metadata: {},
    status: "paid",
    subtotal: paid,
    total: paid,
  };
  if (input.shape === "legacy") {
    Object.assign(invoice, {
      subscription: input.subscriptionId,
      payment_intent: input.paymentIntentId,
      charge: input.chargeId,
      paid: true,
    });
    return processorEvent("invoice.payment_succeeded", invoice, { ...input, apiVersion: input.apiVersion ?? LEGACY_INVOICE_API_VERSION });
  }
  Object.assign(invoice, {
    parent: {
      quote_details: null,
      subscription_details: { metadata: {}, subscription: input.subscriptionId },
      type: "subscription_details",
    },
    payments: {
      object: "list",
      data: [
        {
          id: input.invoicePaymentId ?? processorId("inpay"),
          object: "invoice_payment",
          amount_paid: paid,
          amount_requested: paid,
          currency: input.currency,
          invoice: input.invoiceId,
          is_default: true,
          livemode: false,
          payment: { type: "payment_intent", payment_intent: input.paymentIntentId, charge: input.chargeId },
          status: "paid",
        },
      ],
      has_more: false,
    },
  });
  return processorEvent("invoice.payment_succeeded", invoice, input);
}

/**
 * `invoice.payment_failed` for a subscription's invoice: the attempt (`attempt_count`) was declined;
 * `next_payment_attempt` is when the processor retries (null when it won't).
 */
export function invoicePaymentFailed(
  input: EnvelopeOptions & {
    invoiceId: string;
    subscriptionId: string;
    billingReason?: "subscription_create" | "subscription_cycle" | (string & {});
    amountDueCents: number;
    currency: string;
    attemptCount: number;
    /** Unix seconds, or null. */
    nextPaymentAttempt: number | null;
    paymentIntentId?: string | null;
    chargeId?: string | null;
  },
) {
  const due = input.amountDueCents;
  return processorEvent(
    "invoice.payment_failed",
    {
      id: input.invoiceId,
      object: "invoice",
      amount_due: due,
      amount_paid: 0,
      amount_remaining: due,
      attempt_count: input.attemptCount,
      attempted: true,
      billing_reason: input.billingReason ?? "subscription_cycle",
      currency: input.currency,
      livemode: false,
      metadata: {},
      next_payment_attempt: input.nextPaymentAttempt,
      parent: {
        quote_details: null,
        subscription_details: { metadata: {}, subscription: input.subscriptionId },
        type: "subscription_details",
      },
      payments: {
        object: "list",
        data: [
          {
            id: processorId("inpay"),
            object: "invoice_payment",
            amount_paid: 0,
            amount_requested: due,
            currency: input.currency,
            invoice: input.invoiceId,
            is_default: true,
            livemode: false,
            payment: { type: "payment_intent", payment_intent: input.paymentIntentId ?? null, charge: input.chargeId ?? null },
            status: "open",
          },
        ],
        has_more: false,
      },
      status: "open",
      subtotal: due,
      total: due,
    },
    input,
  );
}

/** `customer.subscription.deleted`: the subscription ended (canceled, or after failed payments: `cancellationReason` "payment_failed"). */
export function customerSubscriptionDeleted(
  input: EnvelopeOptions & {
    subscriptionId: string;
    customerId?: string | null;
    metadata?: Record<string, string>;
    canceledAt?: number;
    cancellationReason?: "cancellation_requested" | "payment_failed" | "payment_disputed";
  },
) {
  const at = input.canceledAt ?? now();
  return processorEvent(
    "customer.subscription.deleted",
    {
      id: input.subscriptionId,
      object: "subscription",
      cancellation_details: { comment: null, feedback: null, reason: input.cancellationReason ?? "cancellation_requested" },
      canceled_at: at,
      customer: input.customerId ?? null,
      ended_at: at,
      livemode: false,
      metadata: input.metadata ?? {},
      status: "canceled",
    },
    input,
  );
}

/** The card a charge was paid with, as `payment_method_details.card` reports it. */
export type ChargeCard = { brand: string; last4: string; expMonth: number; expYear: number };

/** `charge.succeeded`: a payment went through; `payment_method_details.card` names the card and its expiry. */
export function chargeSucceeded(
  input: EnvelopeOptions & {
    chargeId: string;
    paymentIntentId: string | null;
    amountCents: number;
    currency: string;
    card: ChargeCard;
    customerId?: string | null;
    metadata?: Record<string, string>;
  },
) {
  return processorEvent(
    "charge.succeeded",
    {
      id: input.chargeId,
      object: "charge",
      amount: input.amountCents,
      amount_captured: input.amountCents,
      amount_refunded: 0,
      captured: true,
      created: input.created ?? now(),
      currency: input.currency,
      customer: input.customerId ?? null,
      livemode: false,
      metadata: input.metadata ?? {},
      paid: true,
      payment_intent: input.paymentIntentId,
      payment_method: processorId("pm"),
      payment_method_details: {
        card: {
          brand: input.card.brand,
          country: "US",
          exp_month: input.card.expMonth,
          exp_year: input.card.expYear,
          funding: "credit",
          last4: input.card.last4,
          network: input.card.brand,
        },
        type: "card",
      },
      refunded: false,
      status: "succeeded",
    },
    input,
  );
}

/**
 * `setup_intent.succeeded`: a card was saved for later (off-session) payments; `metadata` says
 * which plan's subscription it replaces the card of.
 */
export function setupIntentSucceeded(
  input: EnvelopeOptions & { setupIntentId: string; customerId: string | null; paymentMethodId: string; metadata: Record<string, string> },
) {
  return processorEvent(
    "setup_intent.succeeded",
    {
      id: input.setupIntentId,
      object: "setup_intent",
      customer: input.customerId,
      livemode: false,
      metadata: input.metadata,
      payment_method: input.paymentMethodId,
      payment_method_types: ["card"],
      status: "succeeded",
      usage: "off_session",
    },
    input,
  );
}

// ---------------------------------------------------------------------------------------------
// Refunds and disputes

/** `charge.refunded`: `amountRefundedCents` of the charge given back (all of it by default). */
export function chargeRefunded(
  input: EnvelopeOptions & {
    chargeId: string;
    paymentIntentId: string | null;
    amountCents: number;
    amountRefundedCents?: number;
    currency: string;
    metadata?: Record<string, string>;
    refundId?: string;
  },
) {
  const refunded = input.amountRefundedCents ?? input.amountCents;
  return processorEvent(
    "charge.refunded",
    {
      id: input.chargeId,
      object: "charge",
      amount: input.amountCents,
      amount_captured: input.amountCents,
      amount_refunded: refunded,
      captured: true,
      currency: input.currency,
      livemode: false,
      metadata: input.metadata ?? {},
      paid: true,
      payment_intent: input.paymentIntentId,
      refunded: refunded >= input.amountCents,
      refunds: {
        object: "list",
        data: [
          {
            id: input.refundId ?? processorId("re"),
            object: "refund",
            amount: refunded,
            charge: input.chargeId,
            currency: input.currency,
            payment_intent: input.paymentIntentId,
            status: "succeeded",
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/charges/${input.chargeId}/refunds`,
      },
      status: "succeeded",
    },
    input,
  );
}

export type DisputeInput = EnvelopeOptions & {
  disputeId: string;
  chargeId: string;
  /** Null when Stripe leaves it out: the charge then finds the donation. */
  paymentIntentId: string | null;
  amountCents: number;
  currency: string;
  reason?: string;
  /** Unix seconds by which evidence is due. */
  dueBy?: number;
};

function dispute(input: DisputeInput, status: Stripe.Dispute.Status, submitted: boolean) {
  return {
    id: input.disputeId,
    object: "dispute",
    amount: input.amountCents,
    charge: input.chargeId,
    currency: input.currency,
    evidence_details: {
      due_by: input.dueBy ?? now() + 7 * 86_400,
      has_evidence: submitted,
      past_due: false,
      submission_count: submitted ? 1 : 0,
    },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: input.paymentIntentId,
    reason: input.reason ?? "fraudulent",
    status,
  };
}

/** `charge.dispute.created`: the donor's bank disputes the charge. */
export function chargeDisputeCreated(input: DisputeInput & { status?: Stripe.Dispute.Status }) {
  return processorEvent("charge.dispute.created", dispute(input, input.status ?? "needs_response", false), input);
}

/** `charge.dispute.closed`: won (the money stays) or lost (it goes back). */
export function chargeDisputeClosed(input: DisputeInput & { status: Stripe.Dispute.Status }) {
  return processorEvent("charge.dispute.closed", dispute(input, input.status, true), input);
}

// ---------------------------------------------------------------------------------------------
// Connected accounts and payouts

/** `account.updated` from an organization's connected account. */
export function accountUpdated(
  input: EnvelopeOptions & { accountId: string; chargesEnabled: boolean; payoutsEnabled: boolean; detailsSubmitted?: boolean },
) {
  return processorEvent(
    "account.updated",
    {
      id: input.accountId,
      object: "account",
      charges_enabled: input.chargesEnabled,
      details_submitted: input.detailsSubmitted ?? (input.chargesEnabled && input.payoutsEnabled),
      metadata: {},
      payouts_enabled: input.payoutsEnabled,
      requirements: { currently_due: [], disabled_reason: null, eventually_due: [], past_due: [] },
      type: "express",
    },
    { ...input, account: input.account ?? input.accountId },
  );
}

export type PayoutInput = EnvelopeOptions & {
  /** The connected account paid out from. */
  account: string;
  payoutId: string;
  amountCents: number;
  currency: string;
  /** Unix seconds. */
  arrivalDate?: number;
};

function payout(input: PayoutInput, status: "paid" | "failed", failure: { code: string | null; message: string | null }) {
  return {
    id: input.payoutId,
    object: "payout",
    amount: input.amountCents,
    arrival_date: input.arrivalDate ?? now() + 2 * 86_400,
    automatic: true,
    currency: input.currency,
    failure_code: failure.code,
    failure_message: failure.message,
    livemode: false,
    metadata: {},
    method: "standard",
    status,
    type: "bank_account",
  };
}

/** `payout.paid`: the money reached the organization's bank. */
export function payoutPaid(input: PayoutInput) {
  return processorEvent("payout.paid", payout(input, "paid", { code: null, message: null }), input);
}

/** `payout.failed`: the bank refused it (`failure_message` says why). */
export function payoutFailed(input: PayoutInput & { failureCode?: string; failureMessage?: string }) {
  const failure = { code: input.failureCode ?? "account_closed", message: input.failureMessage ?? "The bank account has been closed." };
  return processorEvent("payout.failed", payout(input, "failed", failure), input);
}
