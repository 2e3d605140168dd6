/**
 * StripeProcessor against a local fake Stripe API. The REAL stripe SDK is pointed at a node:http
 * server on 127.0.0.1 through STRIPE_API_HOST (the SDK's host/port/protocol config); each test
 * asserts the exact request the SDK sent (method, path, form-encoded body in Stripe's bracket
 * notation, Idempotency-Key, Authorization, Stripe-Account, Stripe-Version) and the mapped result.
 * Nothing here reaches the internet.
 */
import { createHmac } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { StripeProcessor, SUBSCRIPTION_EXPAND } from "@/lib/processor/stripe";
import { getStripe, parseApiHost, webhookVerifier } from "@/lib/processor/stripe-client";
import { ProcessorError } from "@/lib/processor/types";
import { InvalidSignatureError, verifyProcessorEvent } from "@/lib/processor/verify-event";
import { unrecognized, useFakeStripe, type StripeReply, type StripeRequest } from "../helpers/fake-stripe";

const SECRET_KEY = "sk_test_goodfund";
const API_VERSION = "2026-10-28.endive";

// ---------------------------------------------------------------------------------------------
// The fake Stripe API.

type Recorded = StripeRequest;
type Reply = StripeReply;
type Handler = (req: Recorded) => Reply;

const overrides: Reply[] = []; // answered first, in order, before the default routes

const now = () => Math.floor(Date.now() / 1000);
const list = (url: string, data: unknown[]) => ({ object: "list", data, has_more: false, url });

const invoicePayment = (invoice: string, pi: unknown, extra: Record<string, unknown> = {}) => ({
  id: `inpay_${invoice.slice(3)}`,
  object: "invoice_payment",
  amount_paid: null,
  amount_requested: 2500,
  created: now(),
  currency: "usd",
  invoice,
  is_default: true,
  livemode: false,
  payment: { type: "payment_intent", payment_intent: pi },
  status: "open",
  status_transitions: { canceled_at: null, paid_at: null },
  ...extra,
});

const paymentIntent = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  object: "payment_intent",
  amount: 2500,
  currency: "usd",
  client_secret: `${id}_secret_fake`,
  status: "requires_payment_method",
  latest_charge: null,
  livemode: false,
  metadata: {},
  ...extra,
});

const routes: Array<[string, RegExp, Handler]> = [
  [
    "POST",
    /^\/v1\/accounts$/,
    ({ form }) => ({
      status: 200,
      body: {
        id: "acct_1GoodfundOrg",
        object: "account",
        email: form.get("email"),
        business_profile: { name: form.get("business_profile[name]") },
        controller: { type: "application", is_controller: true, stripe_dashboard: { type: "express" } },
        charges_enabled: false,
        payouts_enabled: false,
        metadata: { orgId: form.get("metadata[orgId]") },
      },
    }),
  ],
  [
    "POST",
    /^\/v1\/account_links$/,
    ({ form }) => ({
      status: 200,
      body: {
        object: "account_link",
        created: now(),
        expires_at: now() + 300,
        url: `https://connect.stripe.com/setup/e/${form.get("account")}/Xyz123`,
      },
    }),
  ],
  [
    "POST",
    /^\/v1\/payment_intents$/,
    ({ form }) => ({
      status: 200,
      body: paymentIntent(`pi_${form.get("metadata[donationId]")}`, {
        amount: Number(form.get("amount")),
        currency: form.get("currency"),
        application_fee_amount: form.has("application_fee_amount") ? Number(form.get("application_fee_amount")) : null,
        transfer_data: { destination: form.get("transfer_data[destination]") },
      }),
    }),
  ],
  [
    "POST",
    /^\/v1\/products$/,
    ({ form }) => ({
      status: 200,
      body: { id: "prod_Campaign1", object: "product", name: form.get("name"), active: true, metadata: {} },
    }),
  ],
  [
    "POST",
    /^\/v1\/customers$/,
    ({ form }) => ({
      status: 200,
      body: { id: "cus_Donor1", object: "customer", email: form.get("email"), name: form.get("name"), metadata: {} },
    }),
  ],
  [
    "POST",
    /^\/v1\/subscriptions$/,
    ({ form }) => {
      const expanded = [...form.entries()].filter(([k]) => k.startsWith("expand[")).map(([, v]) => v);
      const invoice: Record<string, unknown> = {
        id: "in_First1",
        object: "invoice",
        status: "open",
        billing_reason: "subscription_create",
        amount_due: Number(form.get("items[0][price_data][unit_amount]")),
      };
      if (expanded.includes("latest_invoice.confirmation_secret")) {
        invoice.confirmation_secret = { client_secret: "pi_SubFirst1_secret_abc", type: "payment_intent" };
      }
      if (expanded.includes("latest_invoice.payments")) {
        invoice.payments = list("/v1/invoices/in_First1/payments", [invoicePayment("in_First1", "pi_SubFirst1")]);
      }
      return {
        status: 200,
        body: {
          id: "sub_Recurring1",
          object: "subscription",
          customer: form.get("customer"),
          status: "incomplete",
          latest_invoice: expanded.length ? invoice : "in_First1",
          metadata: {},
        },
      };
    },
  ],
  [
    "POST",
    /^\/v1\/refunds$/,
    ({ form }) => ({
      status: 200,
      body: {
        id: "re_Refund1",
        object: "refund",
        payment_intent: form.get("payment_intent"),
        status: "succeeded",
        amount: 2500,
        metadata: {},
      },
    }),
  ],
  [
    "DELETE",
    /^\/v1\/subscriptions\/[^/]+$/,
    ({ path }) => ({
      status: 200,
      body: { id: path.split("/").pop(), object: "subscription", status: "canceled", metadata: {} },
    }),
  ],
  [
    "GET",
    /^\/v1\/invoice_payments$/,
    ({ query }) => {
      const invoice = query.get("invoice") ?? "";
      const expand = query.get("expand[0]");
      if (invoice === "in_Empty") return { status: 200, body: list("/v1/invoice_payments", []) };
      // `in_NoExpand` plays a server that ignores `expand`, so the processor must fetch the intent.
      const pi =
        expand === "data.payment.payment_intent" && invoice !== "in_NoExpand"
          ? paymentIntent("pi_Renewal1", { status: "succeeded", latest_charge: "ch_Renewal1" })
          : "pi_Renewal1";
      return {
        status: 200,
        body: list("/v1/invoice_payments", [
          invoicePayment(invoice, "pi_Failed0", { is_default: false, status: "canceled" }),
          invoicePayment(invoice, pi, { status: "paid", amount_paid: 2500 }),
        ]),
      };
    },
  ],
  [
    "GET",
    /^\/v1\/payment_intents\/[^/]+$/,
    ({ path }) => ({
      status: 200,
      body: paymentIntent(path.split("/").pop() ?? "", { status: "succeeded", latest_charge: "ch_Renewal1" }),
    }),
  ],
];

function route(rec: Recorded): Reply {
  const override = overrides.shift();
  if (override) return override;
  for (const [method, pattern, handler] of routes) {
    if (method === rec.method && pattern.test(rec.path)) return handler(rec);
  }
  return unrecognized(rec);
}

const stripe = useFakeStripe(route, { headers: { "Stripe-Version": API_VERSION } });
const { requests } = stripe;

const last = () => {
  const r = requests.at(-1);
  if (!r) throw new Error("no request recorded");
  return r;
};
const paths = () => requests.map((r) => `${r.method} ${r.path}`);

beforeEach(() => {
  requests.length = 0;
  overrides.length = 0;
  process.env.STRIPE_SECRET_KEY = SECRET_KEY;
  process.env.STRIPE_API_HOST = stripe.url;
  resetEnv();
});

const processor = new StripeProcessor();

// ---------------------------------------------------------------------------------------------

describe("stripe client", () => {
  it("parses STRIPE_API_HOST into host, port and protocol", () => {
    expect(parseApiHost("http://127.0.0.1:12111")).toEqual({ host: "127.0.0.1", port: 12111, protocol: "http" });
    expect(parseApiHost("https://stripe-mock.internal")).toEqual({
      host: "stripe-mock.internal",
      port: 443,
      protocol: "https",
    });
    expect(parseApiHost("http://[::1]:8080/")).toEqual({ host: "::1", port: 8080, protocol: "http" });
    expect(parseApiHost(undefined)).toEqual({});
    expect(() => parseApiHost("ftp://x")).toThrow(ProcessorError);
  });

  it("keeps one client per process, replaced when the key or host changes", () => {
    const a = getStripe();
    expect(getStripe()).toBe(a);
    process.env.STRIPE_API_HOST = stripe.url.replace("127.0.0.1", "localhost");
    resetEnv();
    const b = getStripe();
    expect(b).not.toBe(a);
    expect(getStripe()).toBe(b);
  });

  it("refuses to build a client without a secret key", async () => {
    delete process.env.STRIPE_SECRET_KEY;
    resetEnv();
    expect(() => getStripe()).toThrow(ProcessorError);
    await expect(
      processor.createOnboardingLink({ accountId: "acct_1", orgId: "o", returnUrl: "x", refreshUrl: "y" }),
    ).rejects.toMatchObject({ name: "ProcessorError", code: "not_configured" });
    expect(requests).toHaveLength(0);
  });

  it("sends the secret key, pinned API version and app info on every request", async () => {
    await processor.cancelSubscription({ subscriptionId: "sub_Headers" });
    const h = last().headers;
    expect(h.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(h["stripe-version"]).toBe(API_VERSION);
    expect(Stripe.API_VERSION).toBe(API_VERSION);
    expect(h["user-agent"]).toContain("Goodfund");
    expect(h["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(h["stripe-account"]).toBeUndefined();
  });
});

describe("StripeProcessor", () => {
  it("has mode stripe", () => {
    expect(processor.mode).toBe("stripe");
  });

  it("createConnectedAccount: an Express-controlled account with card_payments and transfers", async () => {
    const out = await processor.createConnectedAccount({
      orgId: "org_1",
      email: "owner@example.org",
      name: "Friends of the Park",
      country: "us",
    });
    expect(out).toEqual({ accountId: "acct_1GoodfundOrg" });
    expect(paths()).toEqual(["POST /v1/accounts"]);
    const f = last().form;
    expect(Object.fromEntries(f)).toEqual({
      "controller[fees][payer]": "application",
      "controller[losses][payments]": "application",
      "controller[requirement_collection]": "stripe",
      "controller[stripe_dashboard][type]": "express",
      "business_profile[name]": "Friends of the Park",
      "metadata[orgId]": "org_1",
      "capabilities[card_payments][requested]": "true",
      "capabilities[transfers][requested]": "true",
      email: "owner@example.org",
      country: "US",
    });
    expect(f.has("type")).toBe(false); // deprecated in favour of controller
    expect(last().headers["idempotency-key"]).toMatch(/^stripe-node-retry-/); // the SDK's own retry key
  });

  it("createConnectedAccount: omits a null email and an absent country", async () => {
    await processor.createConnectedAccount({ orgId: "org_2", email: null, name: "No Email Org" });
    const f = last().form;
    expect(f.has("email")).toBe(false);
    expect(f.has("country")).toBe(false);
    expect(f.get("business_profile[name]")).toBe("No Email Org");
  });

  it("createOnboardingLink: an account_onboarding Account Link", async () => {
    const out = await processor.createOnboardingLink({
      accountId: "acct_1GoodfundOrg",
      orgId: "org_1",
      returnUrl: "http://localhost:3000/dashboard/org_1/payouts?onboarded=1",
      refreshUrl: "http://localhost:3000/dashboard/org_1/payouts?refresh=1",
    });
    expect(out).toEqual({ url: "https://connect.stripe.com/setup/e/acct_1GoodfundOrg/Xyz123" });
    expect(paths()).toEqual(["POST /v1/account_links"]);
    expect(Object.fromEntries(last().form)).toEqual({
      account: "acct_1GoodfundOrg",
      refresh_url: "http://localhost:3000/dashboard/org_1/payouts?refresh=1",
      return_url: "http://localhost:3000/dashboard/org_1/payouts?onboarded=1",
      type: "account_onboarding",
    });
  });

  const gift = {
    donationId: "don_1",
    orgId: "org_1",
    campaignId: "cmp_1",
    amountCents: 2530,
    currency: "USD",
    destinationAccountId: "acct_1GoodfundOrg",
    applicationFeeCents: 76,
    email: "donor@example.com",
    description: "Gift to Park Cleanup",
  };

  it("createPaymentIntent: a destination charge with an application fee and metadata", async () => {
    const out = await processor.createPaymentIntent(gift);
    expect(out).toEqual({ paymentIntentId: "pi_don_1", clientSecret: "pi_don_1_secret_fake" });
    expect(paths()).toEqual(["POST /v1/payment_intents"]);
    const r = last();
    expect(r.headers["idempotency-key"]).toBe("pi-don_1");
    expect(Object.fromEntries(r.form)).toEqual({
      amount: "2530",
      currency: "usd",
      "automatic_payment_methods[enabled]": "true",
      "transfer_data[destination]": "acct_1GoodfundOrg",
      application_fee_amount: "76",
      receipt_email: "donor@example.com",
      description: "Gift to Park Cleanup",
      "metadata[donationId]": "don_1",
      "metadata[orgId]": "org_1",
      "metadata[campaignId]": "cmp_1",
    });
  });

  it("createPaymentIntent: omits application_fee_amount when the fee is 0", async () => {
    await processor.createPaymentIntent({ ...gift, donationId: "don_nofee", applicationFeeCents: 0 });
    const r = last();
    expect(r.form.has("application_fee_amount")).toBe(false);
    expect(r.form.get("transfer_data[destination]")).toBe("acct_1GoodfundOrg");
    expect(r.headers["idempotency-key"]).toBe("pi-don_nofee");
  });

  const recurring = {
    donationId: "don_r1",
    orgId: "org_1",
    campaignId: "cmp_1",
    campaignTitle: "Park Cleanup",
    productId: null,
    amountCents: 1000,
    currency: "usd",
    interval: "month" as const,
    intervalCount: 1,
    destinationAccountId: "acct_1GoodfundOrg",
    applicationFeePercent: 2.5,
    email: "donor@example.com",
    name: "Dana Donor",
  };

  it("createSubscription: creates the product when productId is null, then customer and subscription", async () => {
    const out = await processor.createSubscription(recurring);
    expect(out).toEqual({
      subscriptionId: "sub_Recurring1",
      customerId: "cus_Donor1",
      productId: "prod_Campaign1",
      clientSecret: "pi_SubFirst1_secret_abc",
      paymentIntentId: "pi_SubFirst1",
    });
    expect(paths()).toEqual(["POST /v1/products", "POST /v1/customers", "POST /v1/subscriptions"]);

    const [product, customer, sub] = requests;
    expect(product.headers["idempotency-key"]).toBe("product-cmp_1");
    expect(Object.fromEntries(product.form)).toEqual({
      name: "Park Cleanup",
      "metadata[campaignId]": "cmp_1",
      "metadata[orgId]": "org_1",
    });

    expect(customer.headers["idempotency-key"]).toBe("customer-don_r1");
    expect(Object.fromEntries(customer.form)).toEqual({
      email: "donor@example.com",
      name: "Dana Donor",
      "metadata[donationId]": "don_r1",
      "metadata[orgId]": "org_1",
      "metadata[campaignId]": "cmp_1",
    });

    expect(sub.headers["idempotency-key"]).toBe("sub-don_r1");
    expect(Object.fromEntries(sub.form)).toEqual({
      customer: "cus_Donor1",
      "items[0][price_data][currency]": "usd",
      "items[0][price_data][product]": "prod_Campaign1",
      "items[0][price_data][unit_amount]": "1000",
      "items[0][price_data][recurring][interval]": "month",
      payment_behavior: "default_incomplete",
      "payment_settings[save_default_payment_method]": "on_subscription",
      "transfer_data[destination]": "acct_1GoodfundOrg",
      application_fee_percent: "2.5",
      "metadata[donationId]": "don_r1",
      "metadata[orgId]": "org_1",
      "metadata[campaignId]": "cmp_1",
      "expand[0]": "latest_invoice.confirmation_secret",
      "expand[1]": "latest_invoice.payments",
    });
    expect(SUBSCRIPTION_EXPAND).toEqual(["latest_invoice.confirmation_secret", "latest_invoice.payments"]);
  });

  it("createSubscription: reuses an existing product, omits a null fee percent and a null name", async () => {
    const out = await processor.createSubscription({
      ...recurring,
      donationId: "don_r2",
      productId: "prod_Existing",
      applicationFeePercent: null,
      name: null,
      interval: "year",
    });
    expect(paths()).toEqual(["POST /v1/customers", "POST /v1/subscriptions"]);
    expect(out.productId).toBe("prod_Existing");
    const [customer, sub] = requests;
    expect(customer.form.has("name")).toBe(false);
    expect(sub.form.get("items[0][price_data][product]")).toBe("prod_Existing");
    expect(sub.form.get("items[0][price_data][recurring][interval]")).toBe("year");
    expect(sub.form.has("application_fee_percent")).toBe(false);
    expect(sub.headers["idempotency-key"]).toBe("sub-don_r2");
  });

  it("createSubscription: falls back to the confirmation secret's intent when payments are absent", async () => {
    overrides.push(
      { status: 200, body: { id: "cus_Donor1", object: "customer", metadata: {} } },
      {
        status: 200,
        body: {
          id: "sub_Recurring3",
          object: "subscription",
          customer: "cus_Donor1",
          status: "incomplete",
          latest_invoice: {
            id: "in_First3",
            object: "invoice",
            confirmation_secret: { client_secret: "pi_Derived3_secret_zzz", type: "payment_intent" },
          },
          metadata: {},
        },
      },
    );
    const out = await processor.createSubscription({ ...recurring, donationId: "don_r3", productId: "prod_Existing" });
    expect(out).toMatchObject({ clientSecret: "pi_Derived3_secret_zzz", paymentIntentId: "pi_Derived3" });
  });

  it("createSubscription: a first invoice without a confirmation secret is a ProcessorError", async () => {
    overrides.push(
      { status: 200, body: { id: "cus_Donor1", object: "customer", metadata: {} } },
      {
        status: 200,
        body: {
          id: "sub_Recurring4",
          object: "subscription",
          customer: "cus_Donor1",
          latest_invoice: { id: "in_First4", object: "invoice", confirmation_secret: null },
          metadata: {},
        },
      },
    );
    await expect(processor.createSubscription({ ...recurring, donationId: "don_r4", productId: "prod_Existing" })).rejects.toMatchObject({
      name: "ProcessorError",
      code: "missing_client_secret",
    });
  });

  it("refundPayment: a full refund reversing the transfer and the application fee", async () => {
    const out = await processor.refundPayment({
      paymentIntentId: "pi_don_1",
      donationId: "don_1",
      amountCents: 2530,
      currency: "usd",
      chargeId: "ch_don_1",
    });
    expect(out).toEqual({ refundId: "re_Refund1" });
    expect(paths()).toEqual(["POST /v1/refunds"]);
    expect(last().headers["idempotency-key"]).toBe("refund-don_1");
    expect(Object.fromEntries(last().form)).toEqual({
      payment_intent: "pi_don_1",
      reverse_transfer: "true",
      refund_application_fee: "true",
      "metadata[donationId]": "don_1",
    }); // no `amount` (a full refund of what remains) and no `charge` (the intent names it)
  });

  it("cancelSubscription: DELETE /v1/subscriptions/:id", async () => {
    await expect(processor.cancelSubscription({ subscriptionId: "sub_Recurring1" })).resolves.toBeUndefined();
    expect(paths()).toEqual(["DELETE /v1/subscriptions/sub_Recurring1"]);
    expect([...last().form.keys()]).toEqual([]);
  });

  it("getInvoicePayment: lists the invoice's payments with the intent expanded (platform invoice)", async () => {
    const out = await processor.getInvoicePayment({ invoiceId: "in_Renewal1", accountId: null });
    expect(out).toEqual({ paymentIntentId: "pi_Renewal1", chargeId: "ch_Renewal1" });
    expect(paths()).toEqual(["GET /v1/invoice_payments"]);
    const r = last();
    expect(r.query.get("invoice")).toBe("in_Renewal1");
    expect(r.query.get("expand[0]")).toBe("data.payment.payment_intent");
    expect(r.headers["stripe-account"]).toBeUndefined();
    expect(r.headers["idempotency-key"]).toBeUndefined();
  });

  it("getInvoicePayment: on a connected account, retrieves the intent when it is not expanded", async () => {
    const out = await processor.getInvoicePayment({ invoiceId: "in_NoExpand", accountId: "acct_1GoodfundOrg" });
    expect(out).toEqual({ paymentIntentId: "pi_Renewal1", chargeId: "ch_Renewal1" });
    expect(paths()).toEqual(["GET /v1/invoice_payments", "GET /v1/payment_intents/pi_Renewal1"]);
    for (const r of requests) expect(r.headers["stripe-account"]).toBe("acct_1GoodfundOrg");
  });

  it("getInvoicePayment: an invoice without payments gives nulls", async () => {
    await expect(processor.getInvoicePayment({ invoiceId: "in_Empty", accountId: null })).resolves.toEqual({
      paymentIntentId: null,
      chargeId: null,
    });
  });

  describe("errors", () => {
    it("a 402 card_error becomes a ProcessorError with the decline code", async () => {
      overrides.push({
        status: 402,
        body: {
          error: {
            type: "card_error",
            code: "card_declined",
            decline_code: "insufficient_funds",
            message: "Your card has insufficient funds.",
            param: "",
          },
        },
      });
      const err = await processor.createPaymentIntent({ ...gift, donationId: "don_e1" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProcessorError);
      expect(err).toMatchObject({ code: "card_declined", message: "Your card has insufficient funds." });
      expect(requests).toHaveLength(1); // 4xx is never retried
    });

    it("a 400 invalid_request_error becomes a ProcessorError with its code", async () => {
      overrides.push({
        status: 400,
        body: {
          error: {
            type: "invalid_request_error",
            code: "resource_missing",
            message: "No such destination: 'acct_missing'",
            param: "transfer_data[destination]",
          },
        },
      });
      const err = await processor
        .createPaymentIntent({ ...gift, donationId: "don_e2", destinationAccountId: "acct_missing" })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProcessorError);
      expect(err).toMatchObject({ code: "resource_missing", message: "No such destination: 'acct_missing'" });
    });

    it("never puts the secret key in an error message", async () => {
      overrides.push({
        status: 401,
        body: { error: { type: "invalid_request_error", message: `Invalid API Key provided: ${SECRET_KEY}` } },
      });
      const err = await processor
        .refundPayment({ paymentIntentId: "pi_x", donationId: "don_e3", amountCents: 100, currency: "usd", chargeId: null })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProcessorError);
      const pe = err as ProcessorError;
      expect(pe.code).toBe("invalid_request_error");
      expect(pe.message).toContain("Invalid API Key provided");
      expect(pe.message).not.toContain(SECRET_KEY);
      expect(pe.message).not.toContain("goodfund");
    });

    it("a 400 on subscription creation surfaces as a ProcessorError", async () => {
      overrides.push(
        { status: 200, body: { id: "cus_Donor1", object: "customer", metadata: {} } },
        {
          status: 400,
          body: {
            error: {
              type: "invalid_request_error",
              code: "parameter_missing",
              message: "Missing required param: items[0][price_data][product].",
            },
          },
        },
      );
      await expect(processor.createSubscription({ ...recurring, donationId: "don_e4", productId: "prod_Existing" })).rejects.toMatchObject({
        name: "ProcessorError",
        code: "parameter_missing",
      });
    });
  });
});

describe("webhook verification", () => {
  const secret = "whsec_goodfund_test";
  const payload = JSON.stringify({
    id: "evt_1",
    object: "event",
    type: "payment_intent.succeeded",
    api_version: API_VERSION,
    created: now(),
    data: { object: { id: "pi_don_1", object: "payment_intent", metadata: { donationId: "don_1" } } },
  });

  it("works without a secret key and never calls the API", async () => {
    delete process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_API_HOST;
    resetEnv();
    const verifier = webhookVerifier();
    expect(webhookVerifier()).toBe(verifier);
    const header = verifier.webhooks.generateTestHeaderString({ payload, secret });
    const event = await verifier.webhooks.constructEventAsync(payload, header, secret);
    expect(event.id).toBe("evt_1");
    expect(event.type).toBe("payment_intent.succeeded");
    await expect(verifier.accounts.create({})).rejects.toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(requests).toHaveLength(0);
  });

  it("accepts a hand-made t=…,v1=… HMAC-SHA256 over `t.rawBody` (the documented scheme)", async () => {
    const t = now();
    const v1 = createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex");
    const event = await webhookVerifier().webhooks.constructEventAsync(Buffer.from(payload), `t=${t},v1=${v1}`, secret);
    expect(event.id).toBe("evt_1");
  });

  it("rejects a tampered body", async () => {
    const v = webhookVerifier();
    const header = v.webhooks.generateTestHeaderString({ payload, secret });
    const tampered = payload.replace("pi_don_1", "pi_don_2");
    await expect(v.webhooks.constructEventAsync(tampered, header, secret)).rejects.toBeInstanceOf(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it("rejects the wrong secret", async () => {
    const v = webhookVerifier();
    const header = v.webhooks.generateTestHeaderString({ payload, secret });
    await expect(v.webhooks.constructEventAsync(payload, header, "whsec_other")).rejects.toBeInstanceOf(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it("rejects a timestamp older than the 300 s tolerance and accepts one inside it", async () => {
    const v = webhookVerifier();
    expect(v.webhooks.DEFAULT_TOLERANCE).toBe(300);
    const stale = v.webhooks.generateTestHeaderString({ payload, secret, timestamp: now() - 301 });
    await expect(v.webhooks.constructEventAsync(payload, stale, secret, 300)).rejects.toThrow(/tolerance/i);
    await expect(v.webhooks.constructEventAsync(payload, stale, secret)).rejects.toBeInstanceOf(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const recent = v.webhooks.generateTestHeaderString({ payload, secret, timestamp: now() - 240 });
    await expect(v.webhooks.constructEventAsync(payload, recent, secret, 300)).resolves.toMatchObject({ id: "evt_1" });
  });
});

describe("verifyProcessorEvent with several webhook secrets", () => {
  const event = JSON.stringify({ id: "evt_multi", object: "event", type: "account.updated", data: { object: { id: "acct_1" } } });
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.PROCESSOR_WEBHOOK_SECRET;
    // The account's endpoint and the connected accounts' endpoint each have a secret of their own.
    process.env.PROCESSOR_WEBHOOK_SECRET = "whsec_platform_endpoint, whsec_connect_endpoint";
    resetEnv();
  });
  afterAll(() => {
    process.env.PROCESSOR_WEBHOOK_SECRET = saved;
    resetEnv();
  });

  it("accepts an event signed with any of the comma-separated secrets", async () => {
    for (const secret of ["whsec_platform_endpoint", "whsec_connect_endpoint"]) {
      const header = webhookVerifier().webhooks.generateTestHeaderString({ payload: event, secret });
      await expect(verifyProcessorEvent(event, header)).resolves.toMatchObject({ id: "evt_multi" });
    }
  });

  it("refuses an event signed with another secret, or not signed", async () => {
    const header = webhookVerifier().webhooks.generateTestHeaderString({ payload: event, secret: "whsec_someone_else" });
    await expect(verifyProcessorEvent(event, header)).rejects.toBeInstanceOf(InvalidSignatureError);
    await expect(verifyProcessorEvent(event, null)).rejects.toBeInstanceOf(InvalidSignatureError);
  });
});
