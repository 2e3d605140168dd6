/**
 * A local fake of Stripe's API for tests that drive the REAL stripe SDK: a server on 127.0.0.1 that
 * the app reaches through STRIPE_API_HOST, recording every request so a test can check exactly what
 * the SDK sent (form-encoded bracket keys, Idempotency-Key, Stripe-Account…), and answering through
 * the test's own `route`. The builders below answer objects of Stripe's shapes.
 */
import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders, Server } from "node:http";
import Stripe from "stripe";
import { afterAll, beforeAll } from "vitest";
import { setEnv, startLocalServer, type LocalServer } from "./local-server";

export type StripeRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The parameters the SDK sent: a GET's query string, else the form-encoded body. */
  form: URLSearchParams;
  headers: IncomingHttpHeaders;
  idempotencyKey: string | undefined;
};
export type StripeReply = { status: number; body: unknown; headers?: Record<string, string> };

export type FakeStripe = {
  /** The fake's base URL (once the file's `beforeAll` hooks have run). */
  readonly url: string;
  /** The fake's HTTP server, for a test that takes it down for a while. */
  readonly server: Server;
  /** Every request so far, oldest first; a test may empty it (`requests.length = 0`). */
  readonly requests: StripeRequest[];
  sent: (method: string, path: string) => StripeRequest[];
};

/**
 * Starts the fake before the tests of the current file (or `describe`) and stops it after them.
 * Meanwhile STRIPE_API_HOST points at it, STRIPE_SECRET_KEY is a test key, and `env` holds any
 * other variables to set (`undefined` removes one); all of them get their old values back after.
 */
export function useFakeStripe(
  route: (req: StripeRequest) => StripeReply,
  options: { env?: Record<string, string | undefined>; headers?: Record<string, string> } = {},
): FakeStripe {
  const requests: StripeRequest[] = [];
  let local: LocalServer | undefined;
  let saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    local = await startLocalServer((req) => {
      const rec: StripeRequest = {
        method: req.method,
        path: req.path,
        query: req.url.searchParams,
        form: req.method === "GET" ? req.url.searchParams : new URLSearchParams(req.body),
        headers: req.headers,
        idempotencyKey: req.headers["idempotency-key"] as string | undefined,
      };
      requests.push(rec);
      const reply = route(rec);
      return { ...reply, headers: { "Request-Id": `req_${randomId()}`, ...options.headers, ...reply.headers } };
    });
    saved = setEnv({ STRIPE_SECRET_KEY: "sk_test_goodfund", ...options.env, STRIPE_API_HOST: local.url });
  });
  afterAll(async () => {
    setEnv(saved);
    await local?.close();
  });
  const started = () => {
    if (!local) throw new Error("the fake Stripe API starts in beforeAll");
    return local;
  };
  return {
    get url() {
      return started().url;
    },
    get server() {
      return started().server;
    },
    requests,
    sent: (method, path) => requests.filter((r) => r.method === method && r.path === path),
  };
}

// ---------------------------------------------------------------------------------------------
// Stripe-shaped answers.

export const randomId = () => randomBytes(8).toString("hex");
export const nowSec = () => Math.floor(Date.now() / 1000);

/** A Stripe event as Stripe sends it: the envelope around `object`, of `type`, created now. */
export const stripeEventOf = (id: string, type: string, object: Record<string, unknown>) => ({
  id,
  object: "event",
  api_version: Stripe.API_VERSION,
  created: nowSec(),
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type,
  data: { object },
});

export function stripeError(status: number, error: { type: string; message: string; [k: string]: unknown }): StripeReply {
  return { status, body: { error } };
}
export const SERVER_ERROR = stripeError(500, { type: "api_error", message: "An unknown error occurred" });
export const unrecognized = (rec: StripeRequest) =>
  stripeError(404, { type: "invalid_request_error", message: `Unrecognized request URL (${rec.method} ${rec.path})` });
export const ok = (body: unknown): StripeReply => ({ status: 200, body });

/** `POST /v1/accounts`: a new Express account, not yet able to take payments. */
export const newAccount = (f: URLSearchParams) => ({
  id: `acct_${randomId()}`,
  object: "account",
  type: "express",
  email: f.get("email"),
  business_profile: { name: f.get("business_profile[name]") },
  charges_enabled: false,
  payouts_enabled: false,
  details_submitted: false,
  metadata: { orgId: f.get("metadata[orgId]") },
});

/** `POST /v1/account_links`. */
export const newAccountLink = (f: URLSearchParams) => ({
  object: "account_link",
  created: nowSec(),
  expires_at: nowSec() + 300,
  url: `https://connect.stripe.test/setup/e/${f.get("account")}/${randomId()}`,
});

/** `POST /v1/payment_intents`: an intent waiting for the donor's card. */
export function newPaymentIntent(f: URLSearchParams) {
  const id = `pi_${randomId()}`;
  return {
    id,
    object: "payment_intent",
    amount: Number(f.get("amount")),
    amount_received: 0,
    currency: f.get("currency"),
    client_secret: `${id}_secret_${randomId()}`,
    status: "requires_payment_method",
    application_fee_amount: f.has("application_fee_amount") ? Number(f.get("application_fee_amount")) : null,
    transfer_data: { destination: f.get("transfer_data[destination]") },
    latest_charge: null,
    last_payment_error: null,
    cancellation_reason: null,
    livemode: false,
    metadata: { donationId: f.get("metadata[donationId]") },
  };
}

/** `POST /v1/products`. */
export const newProduct = (f: URLSearchParams) => ({
  id: `prod_${randomId()}`,
  object: "product",
  name: f.get("name"),
  active: true,
  metadata: {},
});

/** `POST /v1/customers`. */
export const newCustomer = (f: URLSearchParams) => ({
  id: `cus_${randomId()}`,
  object: "customer",
  email: f.get("email"),
  name: f.get("name"),
  metadata: {},
});

/** One payment of an invoice (an entry of `GET /v1/invoice_payments`), open unless `fields` say otherwise. */
export const invoicePayment = (invoice: string | null, paymentIntent: unknown, fields: Record<string, unknown> = {}) => ({
  id: `inpay_${randomId()}`,
  object: "invoice_payment",
  invoice,
  is_default: true,
  status: "open",
  payment: { type: "payment_intent", payment_intent: paymentIntent },
  ...fields,
});

/**
 * `POST /v1/subscriptions`: an incomplete subscription whose first invoice (expanded, with its
 * confirmation secret and payments) waits for the donor's card. `id` and `fields` add to it.
 */
export function newSubscription(f: URLSearchParams, id = `sub_${randomId()}`, fields: Record<string, unknown> = {}) {
  const invoice = `in_${randomId()}`;
  const pi = `pi_${randomId()}`;
  return {
    id,
    object: "subscription",
    customer: f.get("customer"),
    status: "incomplete",
    metadata: { donationId: f.get("metadata[donationId]") },
    ...fields,
    latest_invoice: {
      id: invoice,
      object: "invoice",
      status: "open",
      billing_reason: "subscription_create",
      amount_due: Number(f.get("items[0][price_data][unit_amount]")),
      confirmation_secret: { client_secret: `${pi}_secret_${randomId()}`, type: "payment_intent" },
      payments: {
        object: "list",
        url: `/v1/invoices/${invoice}/payments`,
        has_more: false,
        data: [invoicePayment(invoice, pi)],
      },
    },
  };
}

/** The requests that create a Connect account, its onboarding link, a product or a customer, and the new object each answers. */
const CREATES: Record<string, (f: URLSearchParams) => unknown> = {
  "POST /v1/accounts": newAccount,
  "POST /v1/account_links": newAccountLink,
  "POST /v1/products": newProduct,
  "POST /v1/customers": newCustomer,
};

/** The fake's usual answer to creating an account, account link, product or customer (see CREATES); undefined for any other request. */
export function creationReply(rec: StripeRequest): StripeReply | undefined {
  const create = CREATES[`${rec.method} ${rec.path}`];
  return create ? ok(create(rec.form)) : undefined;
}
