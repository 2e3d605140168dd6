/**
 * Donations in Stripe mode, through the real route handlers and the REAL stripe SDK, pointed at a
 * local fake Stripe API (node:http on 127.0.0.1, random port) through STRIPE_API_HOST. The fake
 * answers objects of Stripe's shapes and records every request, so each test checks exactly what
 * the SDK sent (form-encoded bracket keys, Idempotency-Key). Outcomes arrive as signed processor
 * events delivered to POST /api/processor/webhooks, as Stripe would send them.
 */
import { eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { donations, recurringPlans } from "@/db/schema";
import { resetEnv } from "@/lib/env";
import { runWorkerOnce } from "@/lib/jobs/worker";
import { coverFeeCents, platformFeeCents } from "@/lib/money";
import { get, newCampaign, newOrg, post, randomIp, type ApiResponse, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import {
  creationReply,
  invoicePayment,
  newPaymentIntent,
  newSubscription,
  nowSec,
  ok,
  randomId,
  SERVER_ERROR,
  unrecognized,
  useFakeStripe,
  type StripeReply,
  type StripeRequest,
  stripeEventOf,
} from "../helpers/fake-stripe";

type Org = { id: string; slug: string } & Record<string, any>;

// ---------------------------------------------------------------------------------------------
// The fake Stripe API.

type Recorded = StripeRequest;
type Reply = StripeReply;

/** Paths (`POST /v1/payment_intents`) the fake answers with an error while listed (a 500 unless given). */
const failing = new Map<string, Reply>();
const fail = (key: string, reply: Reply = SERVER_ERROR) => failing.set(key, reply);

/** Subscriptions canceled at the fake, or expired there by a test. */
const endedSubscriptions = new Set<string>();

/** PaymentIntents whose status a test set at the fake (as if the donor's payment reached Stripe). */
const intentStatus = new Map<string, string>();

function route(rec: Recorded): Reply {
  const key = `${rec.method} ${rec.path}`;
  const f = rec.form;
  const failure = failing.get(key);
  if (failure) return failure;
  const intent = /^\/v1\/payment_intents\/(pi_\w+?)(\/cancel)?$/.exec(rec.path);
  if (intent) {
    const [, id, cancel] = intent;
    const status = intentStatus.get(id) ?? "requires_payment_method";
    const body = (s: string) => ({
      id,
      object: "payment_intent",
      status: s,
      cancellation_reason: s === "canceled" ? "abandoned" : null,
      livemode: false,
    });
    if (rec.method === "GET") return { status: 200, body: body(status) };
    if (cancel && (status === "succeeded" || status === "canceled" || status === "processing")) {
      return {
        status: 400,
        body: {
          error: {
            type: "invalid_request_error",
            code: "payment_intent_unexpected_state",
            message: `You cannot cancel this PaymentIntent because it has a status of ${status}.`,
            payment_intent: body(status),
          },
        },
      };
    }
    if (cancel) {
      intentStatus.set(id, "canceled");
      return { status: 200, body: body("canceled") };
    }
  }
  const subscription = /^\/v1\/subscriptions\/(sub_\w+)$/.exec(rec.path);
  if (subscription && rec.method === "DELETE") {
    // Stripe answers a subscription already over (canceled, or expired unpaid) as missing.
    if (endedSubscriptions.has(subscription[1])) {
      return {
        status: 404,
        body: { error: { type: "invalid_request_error", code: "resource_missing", message: `No such subscription: '${subscription[1]}'` } },
      };
    }
    endedSubscriptions.add(subscription[1]);
    return { status: 200, body: { id: subscription[1], object: "subscription", status: "canceled", metadata: {} } };
  }
  const made = creationReply(rec);
  if (made) return made;
  switch (key) {
    case "POST /v1/payment_intents":
      return ok(newPaymentIntent(f));
    case "POST /v1/subscriptions":
      return ok(newSubscription(f));
    case "GET /v1/invoice_payments": {
      const invoice = f.get("invoice");
      return {
        status: 200,
        body: {
          object: "list",
          url: "/v1/invoice_payments",
          has_more: false,
          data: [
            invoicePayment(
              invoice,
              { id: `pi_renew_${invoice}`, object: "payment_intent", latest_charge: `ch_renew_${invoice}` },
              { status: "paid", amount_paid: 1500 },
            ),
          ],
        },
      };
    }
    case "POST /v1/refunds":
      return {
        status: 200,
        body: { id: `re_${randomId()}`, object: "refund", payment_intent: f.get("payment_intent"), status: "succeeded", metadata: {} },
      };
    default:
      return unrecognized(rec);
  }
}

const stripe = useFakeStripe(route, { env: { PAYMENTS_MODE: "stripe", PLATFORM_FEE_BPS: undefined } });
const { requests } = stripe;
const sent = (path: string) => stripe.sent("POST", path);
function only(path: string): Recorded {
  const list = sent(path);
  expect(
    list.map((r) => r.path),
    `requests to ${path}`,
  ).toHaveLength(1);
  return list[0];
}

beforeEach(() => {
  requests.length = 0;
  failing.clear();
});

// ---------------------------------------------------------------------------------------------
// Helpers.

const webhookSigner = new Stripe("sk_test_x");

/** A signed processor event of Stripe's envelope, delivered to the webhook endpoint. */
function deliver(type: string, object: Record<string, unknown>, header = "stripe-signature"): Promise<ApiResponse> {
  const payload = JSON.stringify(stripeEventOf(`evt_${randomId()}`, type, object));
  const signature = webhookSigner.webhooks.generateTestHeaderString({ payload, secret: process.env.PROCESSOR_WEBHOOK_SECRET! });
  return post("/api/processor/webhooks", undefined, {
    rawBody: payload,
    headers: { "content-type": "application/json", [header]: signature },
  });
}

/** An organization connected to the fake Stripe and made ACTIVE by a signed `account.updated`. */
async function stripeOrg(): Promise<{ owner: TestUser; org: Org; accountId: string }> {
  const { owner, org } = await newOrg(undefined, { notificationEmail: "finance@goodfund-test.org" });
  const res = await post(`/api/orgs/${org.id}/processor/onboarding`, undefined, { token: owner.token });
  expect(res.status, res.text).toBe(200);
  const accountId = res.body.processorAccountId as string;
  const ev = await deliver("account.updated", {
    id: accountId,
    object: "account",
    type: "express",
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
  });
  expect(ev.status, ev.text).toBe(200);
  const after = await get(`/api/orgs/${org.id}`, { token: owner.token });
  expect(after.body.status).toBe("ACTIVE");
  return { owner, org: after.body, accountId };
}

const gift = (campaignId: string, extra: Record<string, unknown> = {}) => ({
  campaignId,
  amount: 2500,
  email: `donor-${randomId()}@example.org`,
  firstName: "Ada",
  lastName: "Lovelace",
  ...extra,
});

async function campaignOf(id: string, owner: TestUser) {
  const res = await get(`/api/campaigns/${id}`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body;
}

function withFeeBps(bps: string | undefined) {
  if (bps === undefined) delete process.env.PLATFORM_FEE_BPS;
  else process.env.PLATFORM_FEE_BPS = bps;
  resetEnv();
}

// ---------------------------------------------------------------------------------------------

let owner: TestUser;
let org: Org;
let accountId: string;

beforeAll(async () => {
  ({ owner, org, accountId } = await stripeOrg());
});

describe("onboarding in Stripe mode", () => {
  it("creates the connected account and an account link; account.updated makes the org ACTIVE", async () => {
    const { owner: o, org: fresh } = await newOrg(undefined, { notificationEmail: "ops@goodfund-test.org", legalName: "Fresh Fund Inc." });
    const res = await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: o.token });
    expect(res.status, res.text).toBe(200);
    const acct = only("/v1/accounts");
    expect(acct.headers.authorization).toBe("Bearer sk_test_goodfund");
    expect(acct.form.get("metadata[orgId]")).toBe(fresh.id);
    expect(acct.form.get("email")).toBe("ops@goodfund-test.org");
    expect(acct.form.get("business_profile[name]")).toBe("Fresh Fund Inc.");
    const link = only("/v1/account_links");
    expect(res.body.processorAccountId).toMatch(/^acct_[0-9a-f]+$/);
    expect(link.form.get("account")).toBe(res.body.processorAccountId);
    expect(link.form.get("type")).toBe("account_onboarding");
    expect(link.form.get("return_url")).toEqual(expect.stringContaining(fresh.slug));
    expect(link.form.get("refresh_url")).toEqual(expect.stringContaining(fresh.slug));
    expect(res.body.url).toMatch(new RegExp(`^https://connect\\.stripe\\.test/setup/e/${res.body.processorAccountId}/`));

    // A second call reuses the account and only asks for a new link.
    requests.length = 0;
    const again = await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: o.token });
    expect(again.body.processorAccountId).toBe(res.body.processorAccountId);
    expect(sent("/v1/accounts")).toHaveLength(0);
    expect(sent("/v1/account_links")).toHaveLength(1);

    // Still ONBOARDING, so a campaign takes no donations yet.
    const c = await newCampaign(fresh, o.token, { status: "ACTIVE" });
    expect((await post("/api/donations", gift(c.id))).status).toBe(409);
    // Charges without payouts is not enough.
    expect(
      (
        await deliver("account.updated", {
          id: res.body.processorAccountId,
          object: "account",
          charges_enabled: true,
          payouts_enabled: false,
        })
      ).status,
    ).toBe(200);
    expect((await get(`/api/orgs/${fresh.id}`, { token: o.token })).body).toMatchObject({
      status: "ONBOARDING",
      chargesEnabled: true,
      payoutsEnabled: false,
    });
    const ev = await deliver(
      "account.updated",
      { id: res.body.processorAccountId, object: "account", charges_enabled: true, payouts_enabled: true },
      "processor-signature",
    );
    expect(ev.status, ev.text).toBe(200);
    expect(ev.body).toEqual({ received: true });
    expect((await get(`/api/orgs/${fresh.id}`, { token: o.token })).body).toMatchObject({
      status: "ACTIVE",
      chargesEnabled: true,
      payoutsEnabled: true,
    });
    expect((await post("/api/donations", gift(c.id))).status).toBe(201);
  });

  it("a wrongly signed account.updated is refused and changes nothing", async () => {
    const { owner: o, org: fresh } = await newOrg();
    const res = await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: o.token });
    const payload = JSON.stringify({
      id: `evt_${randomId()}`,
      object: "event",
      type: "account.updated",
      data: { object: { id: res.body.processorAccountId, charges_enabled: true, payouts_enabled: true } },
    });
    const signature = webhookSigner.webhooks.generateTestHeaderString({ payload, secret: "whsec_wrong" });
    const bad = await post("/api/processor/webhooks", undefined, {
      rawBody: payload,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "Invalid signature", status: 400 });
    expect((await get(`/api/orgs/${fresh.id}`, { token: o.token })).body.status).toBe("ONBOARDING");
  });
});

describe("POST /api/donations in Stripe mode", () => {
  it("one-time: a destination PaymentIntent for amount + fee, keyed by the donation", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    const res = await post("/api/donations", gift(c.id, { amount: 5000, coverFees: true }));
    expect(res.status, res.text).toBe(201);
    const fee = coverFeeCents(5000);
    expect(res.body).toMatchObject({ status: "PENDING", amount: 5000, feeCents: fee, chargeAmountCents: 5000 + fee, subscriptionId: null });

    const pi = only("/v1/payment_intents");
    expect(pi.form.get("amount")).toBe(String(5000 + fee));
    expect(pi.form.get("currency")).toBe("usd");
    expect(pi.form.get("transfer_data[destination]")).toBe(accountId);
    expect(pi.form.get("metadata[donationId]")).toBe(res.body.id);
    expect(pi.form.get("metadata[orgId]")).toBe(org.id);
    expect(pi.form.get("metadata[campaignId]")).toBe(c.id);
    expect(pi.form.has("application_fee_amount")).toBe(false);
    expect(pi.headers["idempotency-key"]).toBe(`pi-${res.body.id}`);
    expect(pi.headers.authorization).toBe("Bearer sk_test_goodfund");

    expect(res.body.paymentIntentId).toMatch(/^pi_[0-9a-f]+$/);
    expect(res.body.clientSecret.startsWith(`${res.body.paymentIntentId}_secret_`)).toBe(true);
    // No subscription, product or customer for a one-time gift.
    expect(sent("/v1/subscriptions")).toHaveLength(0);
    expect(sent("/v1/products")).toHaveLength(0);
    expect(sent("/v1/customers")).toHaveLength(0);
  });

  it("PLATFORM_FEE_BPS=250 → application_fee_amount is 2.5 % of the charge, rounded down", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    withFeeBps("250");
    try {
      for (const amount of [3333, 10_000, 101]) {
        requests.length = 0;
        const res = await post("/api/donations", gift(c.id, { amount }));
        expect(res.status, res.text).toBe(201);
        const pi = only("/v1/payment_intents");
        const expected = Math.floor((amount * 250) / 10_000);
        expect(expected).toBe(platformFeeCents(amount, 250));
        expect(pi.form.get("application_fee_amount")).toBe(String(expected));
      }
      requests.length = 0;
      expect((await post("/api/donations", gift(c.id, { recurringInterval: "MONTH" }))).status).toBe(201);
      expect(only("/v1/subscriptions").form.get("application_fee_percent")).toBe("2.5");
    } finally {
      withFeeBps(undefined);
    }
  });

  it("recurring: one product per campaign, a customer and a default_incomplete subscription", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE", title: "Monthly friends" });
    const res = await post("/api/donations", gift(c.id, { amount: 1500, recurringInterval: "MONTH" }));
    expect(res.status, res.text).toBe(201);

    const product = only("/v1/products");
    expect(product.form.get("name")).toBe("Monthly friends");
    expect(product.form.get("metadata[campaignId]")).toBe(c.id);
    const customer = only("/v1/customers");
    expect(customer.form.get("email")).toBe(res.body.email);
    expect(customer.form.get("name")).toBe("Ada Lovelace");
    const sub = only("/v1/subscriptions");
    expect(sub.form.get("customer")).toMatch(/^cus_/);
    expect(sub.form.get("items[0][price_data][recurring][interval]")).toBe("month");
    expect(sub.form.get("items[0][price_data][unit_amount]")).toBe("1500");
    expect(sub.form.get("items[0][price_data][currency]")).toBe("usd");
    expect(sub.form.get("items[0][price_data][product]")).toMatch(/^prod_/);
    expect(sub.form.get("payment_behavior")).toBe("default_incomplete");
    expect(sub.form.get("transfer_data[destination]")).toBe(accountId);
    expect(sub.form.get("metadata[donationId]")).toBe(res.body.id);
    expect(sub.headers["idempotency-key"]).toBe(`sub-${res.body.id}`);
    expect(sent("/v1/payment_intents")).toHaveLength(0);

    expect(res.body.subscriptionId).toMatch(/^sub_[0-9a-f]+$/);
    expect(res.body.paymentIntentId).toMatch(/^pi_[0-9a-f]+$/);
    expect(res.body.clientSecret.startsWith(`${res.body.paymentIntentId}_secret_`)).toBe(true);
    const productId = sub.form.get("items[0][price_data][product]");

    // A second recurring gift to the same campaign reuses the product.
    requests.length = 0;
    const second = await post("/api/donations", gift(c.id, { amount: 2000, recurringInterval: "YEAR" }));
    expect(second.status, second.text).toBe(201);
    expect(sent("/v1/products")).toHaveLength(0);
    expect(sent("/v1/customers")).toHaveLength(1);
    const sub2 = only("/v1/subscriptions");
    expect(sub2.form.get("items[0][price_data][product]")).toBe(productId);
    expect(sub2.form.get("items[0][price_data][recurring][interval]")).toBe("year");
    expect(second.body.subscriptionId).not.toBe(res.body.subscriptionId);

    // Another campaign gets its own product.
    requests.length = 0;
    const other = await newCampaign(org, owner.token, { status: "ACTIVE", title: "Other" });
    expect((await post("/api/donations", gift(other.id, { recurringInterval: "MONTH" }))).status).toBe(201);
    expect(sent("/v1/products")).toHaveLength(1);
  });

  it.each([
    ["WEEK", "week", null],
    ["MONTH", "month", null],
    ["QUARTER", "month", "3"],
    ["YEAR", "year", null],
  ] as const)("recurring %s: the subscription's price recurs every %s (interval_count %s)", async (interval, stripeInterval, count) => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    const res = await post("/api/donations", gift(c.id, { amount: 1300, recurringInterval: interval }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.recurringInterval).toBe(interval);
    const sub = only("/v1/subscriptions");
    expect(sub.form.get("items[0][price_data][recurring][interval]")).toBe(stripeInterval);
    expect(sub.form.get("items[0][price_data][recurring][interval_count]")).toBe(count);
    expect(sub.form.get("items[0][price_data][unit_amount]")).toBe("1300");
    const [plan] = await (await testDb()).select().from(recurringPlans).where(eq(recurringPlans.subscriptionId, res.body.subscriptionId));
    expect(plan.interval).toBe(interval);
  });

  it("refund: POST /v1/refunds for the payment intent; REFUNDED when charge.refunded arrives", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    const created = await post("/api/donations", gift(c.id, { amount: 4000 }));
    expect(created.status).toBe(201);
    const pi = created.body.paymentIntentId;
    const chargeId = `ch_${randomId()}`;
    const ok = await deliver("payment_intent.succeeded", {
      id: pi,
      object: "payment_intent",
      amount: 4000,
      amount_received: 4000,
      currency: "usd",
      status: "succeeded",
      latest_charge: chargeId,
      metadata: { donationId: created.body.id },
    });
    expect(ok.status, ok.text).toBe(200);
    expect((await campaignOf(c.id, owner)).raisedAmountCents).toBe(4000);

    requests.length = 0;
    const res = await post(`/api/donations/${created.body.id}/refund`, undefined, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    const refund = only("/v1/refunds");
    expect(refund.form.get("payment_intent")).toBe(pi);
    expect(refund.form.get("metadata[donationId]")).toBe(created.body.id);
    expect(refund.headers["idempotency-key"]).toBe(`refund-${created.body.id}`);
    // The status follows the processor's event.
    expect(res.body.status).toBe("SUCCEEDED");
    const ev = await deliver("charge.refunded", {
      id: chargeId,
      object: "charge",
      amount: 4000,
      amount_refunded: 4000,
      refunded: true,
      currency: "usd",
      payment_intent: pi,
      status: "succeeded",
    });
    expect(ev.status, ev.text).toBe(200);
    const db = await testDb();
    const [row] = await db.select().from(donations).where(eq(donations.id, created.body.id));
    expect(row.status).toBe("REFUNDED");
    const after = await campaignOf(c.id, owner);
    expect(after.raisedAmountCents).toBe(0);
    expect(after.donationCount).toBe(0);
  });

  it("Stripe failing → 502 in the error shape; the donation is FAILED and its ticket released", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE", type: "EVENT", ticketPriceCents: 2000, ticketCapacity: 5 });
    fail("POST /v1/payment_intents");
    const body = gift(c.id, { amount: 4000, tickets: 2 });
    const res = await post("/api/donations", body);
    expect(res.status, res.text).toBe(502);
    expect(Object.keys(res.body).sort()).toEqual(["error", "status"]);
    expect(res.body.status).toBe(502);
    expect(res.body.error).toEqual(expect.any(String));
    expect(res.text).not.toMatch(/sk_test|stack|at .+:\d+:\d+/);
    const attempts = sent("/v1/payment_intents");
    expect(attempts.length).toBeGreaterThanOrEqual(1);
    // Every retry the SDK made carried the same idempotency key.
    expect(new Set(attempts.map((a) => a.headers["idempotency-key"])).size).toBe(1);

    const db = await testDb();
    const rows = await db.select().from(donations).where(eq(donations.email, body.email));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "FAILED", paymentIntentId: null, tickets: 2 });
    expect(attempts[0].form.get("metadata[donationId]")).toBe(rows[0].id);
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(0);

    // Once Stripe recovers, the tickets can be bought.
    failing.clear();
    const again = await post("/api/donations", gift(c.id, { amount: 10_000, tickets: 5 }));
    expect(again.status, again.text).toBe(201);
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(5);
  }, 30_000);

  it("a failing subscription creation → 502, donation FAILED and its plan canceled", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    fail("POST /v1/subscriptions");
    const body = gift(c.id, { recurringInterval: "MONTH" });
    const res = await post("/api/donations", body);
    expect(res.status, res.text).toBe(502);
    expect(res.body.status).toBe(502);
    const db = await testDb();
    const [row] = await db.select().from(donations).where(eq(donations.email, body.email));
    expect(row.status).toBe("FAILED");
    const [plan] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, row.recurringPlanId!));
    expect(plan.status).toBe("CANCELED");
  }, 30_000);
});

describe("invoice.payment_succeeded in Stripe mode", () => {
  it("fetches a renewal's payment when the payload omits it, so a later dispute (payment_intent null) finds the renewal", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE", title: "Monthly renewals" });
    const res = await post("/api/donations", gift(c.id, { amount: 1500, recurringInterval: "MONTH" }));
    expect(res.status, res.text).toBe(201);
    const subscriptionId = res.body.subscriptionId as string;
    const invoice = (id: string, reason: string) => ({
      id,
      object: "invoice",
      billing_reason: reason,
      amount_paid: 1500,
      currency: "usd",
      status: "paid",
      parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId } },
    });
    expect((await deliver("invoice.payment_succeeded", invoice(`in_first_${randomId()}`, "subscription_create"))).status).toBe(200);

    requests.length = 0;
    const renewalInvoice = `in_cycle_${randomId()}`;
    expect((await deliver("invoice.payment_succeeded", invoice(renewalInvoice, "subscription_cycle"))).status).toBe(200);
    const lookups = requests.filter((r) => r.method === "GET" && r.path === "/v1/invoice_payments");
    expect(lookups).toHaveLength(1);
    expect(lookups[0].form.get("invoice")).toBe(renewalInvoice);
    expect(lookups[0].form.get("expand[0]")).toBe("data.payment.payment_intent");

    const db = await testDb();
    const [renewal] = await db.select().from(donations).where(eq(donations.invoiceId, renewalInvoice));
    expect(renewal).toMatchObject({
      isRenewal: true,
      status: "SUCCEEDED",
      paymentIntentId: `pi_renew_${renewalInvoice}`,
      chargeId: `ch_renew_${renewalInvoice}`,
    });
    expect(await campaignOf(c.id, owner)).toMatchObject({ raisedAmountCents: 3000, donationCount: 2 });

    const dispute = await deliver("charge.dispute.created", {
      id: `dp_${randomId()}`,
      object: "dispute",
      amount: 1500,
      currency: "usd",
      reason: "fraudulent",
      status: "needs_response",
      payment_intent: null,
      charge: `ch_renew_${renewalInvoice}`,
      evidence_details: { due_by: nowSec() + 7 * 86400 },
    });
    expect(dispute.status).toBe(200);
    const [after] = await db.select().from(donations).where(eq(donations.id, renewal.id));
    expect(after.status).toBe("DISPUTED");
    expect(await campaignOf(c.id, owner)).toMatchObject({ raisedAmountCents: 1500, donationCount: 1 });
  });
});

describe("Stripe errors outside donations", () => {
  it("a refund Stripe refuses answers 409 (already refunded) or 502, never 500, and changes nothing", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    const created = await post("/api/donations", gift(c.id, { amount: 2000 }));
    const pi = created.body.paymentIntentId;
    expect(
      (
        await deliver("payment_intent.succeeded", {
          id: pi,
          object: "payment_intent",
          amount: 2000,
          amount_received: 2000,
          currency: "usd",
          status: "succeeded",
          latest_charge: `ch_${randomId()}`,
          metadata: { donationId: created.body.id },
        })
      ).status,
    ).toBe(200);

    fail("POST /v1/refunds", {
      status: 400,
      body: {
        error: { type: "invalid_request_error", code: "charge_already_refunded", message: `Charge for ${pi} has already been refunded.` },
      },
    });
    const already = await post(`/api/donations/${created.body.id}/refund`, undefined, { token: owner.token });
    expect(already.status, already.text).toBe(409);
    expect(already.body).toEqual({ error: expect.any(String), status: 409 });

    fail("POST /v1/refunds");
    const down = await post(`/api/donations/${created.body.id}/refund`, undefined, { token: owner.token });
    expect(down.status, down.text).toBe(502);
    expect(down.body).toEqual({ error: expect.any(String), status: 502 });
    expect(down.text).not.toContain("sk_test_goodfund");

    const db = await testDb();
    const [row] = await db.select().from(donations).where(eq(donations.id, created.body.id));
    expect(row.status).toBe("SUCCEEDED");
    expect((await campaignOf(c.id, owner)).raisedAmountCents).toBe(2000);
  }, 30_000);

  it("onboarding while Stripe fails answers 502 and connects nothing", async () => {
    const { owner: o, org: fresh } = await newOrg();
    fail("POST /v1/accounts");
    const res = await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: o.token });
    expect(res.status, res.text).toBe(502);
    expect(res.body).toEqual({ error: expect.any(String), status: 502 });
    expect((await get(`/api/orgs/${fresh.id}`, { token: o.token })).body.processorAccountId).toBeNull();

    // The account is made but the link fails: the account is kept, so a retry resumes it.
    failing.clear();
    fail("POST /v1/account_links");
    const half = await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: o.token });
    expect(half.status, half.text).toBe(502);
    const kept = (await get(`/api/orgs/${fresh.id}`, { token: o.token })).body.processorAccountId;
    expect(kept).toMatch(/^acct_/);
    failing.clear();
    requests.length = 0;
    const retry = await post(`/api/orgs/${fresh.id}/processor/onboarding`, undefined, { token: o.token });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.body.processorAccountId).toBe(kept);
    expect(sent("/v1/accounts")).toHaveLength(0);
  }, 30_000);
});

/** Backdates a donation's creation, as if its checkout had been left that long. */
async function ageDonation(id: string, interval: string) {
  await (
    await testDb()
  )
    .update(donations)
    .set({ createdAt: sql`now() - ${interval}::interval` })
    .where(eq(donations.id, id));
}

const row = async (id: string) => (await (await testDb()).select().from(donations).where(eq(donations.id, id)))[0];

type Started = { id: string; paymentIntentId: string };

/** The worker canceled the donation's PaymentIntent once, as `abandoned`, keyed by the donation. */
function expectAbandonedCancel(donation: Started) {
  const cancel = only(`/v1/payment_intents/${donation.paymentIntentId}/cancel`);
  expect(cancel.form.get("cancellation_reason")).toBe("abandoned");
  expect(cancel.headers["idempotency-key"]).toBe(`pi-cancel-${donation.id}`);
}

/** Stripe's payment_intent.canceled that follows the worker's cancel, delivered and acknowledged. */
async function deliverAbandoned(donation: Started) {
  const ev = await deliver("payment_intent.canceled", {
    id: donation.paymentIntentId,
    object: "payment_intent",
    status: "canceled",
    cancellation_reason: "abandoned",
    metadata: { donationId: donation.id },
  });
  expect(ev.status, ev.text).toBe(200);
}

/** Stripe's payment_intent.succeeded for the donation's PaymentIntent, paid `amount`, delivered and acknowledged. */
async function deliverPaid(donation: Started, amount: number) {
  const ev = await deliver("payment_intent.succeeded", {
    id: donation.paymentIntentId,
    object: "payment_intent",
    status: "succeeded",
    amount,
    amount_received: amount,
    latest_charge: `ch_${randomId()}`,
    metadata: { donationId: donation.id },
  });
  expect(ev.status, ev.text).toBe(200);
}

describe("ticket holds in Stripe mode", () => {
  const ageHold = (id: string) => ageDonation(id, "31 minutes");

  it("the worker cancels an expired hold's PaymentIntent (abandoned, keyed by the donation), then fails the donation and frees its tickets", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE", type: "EVENT", ticketPriceCents: 2000, ticketCapacity: 5 });
    const res = await post("/api/donations", gift(c.id, { amount: 4000, tickets: 2 }));
    expect(res.status, res.text).toBe(201);
    await ageHold(res.body.id);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });

    expectAbandonedCancel(res.body);
    expect(await row(res.body.id)).toMatchObject({ status: "FAILED", failureReason: "Ticket hold expired after 30 minutes" });
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(0);

    // Stripe's payment_intent.canceled follows: acknowledged, the reason and the count stay.
    await deliverAbandoned(res.body);
    expect(await row(res.body.id)).toMatchObject({ status: "FAILED", failureReason: "Ticket hold expired after 30 minutes" });
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(0);
  });

  it("a PaymentIntent that already succeeded at Stripe is not canceled: the donation keeps its tickets until payment_intent.succeeded", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE", type: "EVENT", ticketPriceCents: 2000, ticketCapacity: 5 });
    const res = await post("/api/donations", gift(c.id, { amount: 2000, tickets: 1 }));
    expect(res.status, res.text).toBe(201);
    const pi = res.body.paymentIntentId as string;
    intentStatus.set(pi, "succeeded");
    await ageHold(res.body.id);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect(sent(`/v1/payment_intents/${pi}/cancel`).length).toBeGreaterThanOrEqual(1);
    expect(requests.some((r) => r.method === "GET" && r.path === `/v1/payment_intents/${pi}`)).toBe(true);
    expect((await row(res.body.id)).status).toBe("PENDING");
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(1);

    await deliverPaid(res.body, 2000);
    expect((await row(res.body.id)).status).toBe("SUCCEEDED");
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(1);
  });

  it("a declined card keeps the hold while the PaymentIntent can still be paid; the worker cancels it at expiry and the seats sell again", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE", type: "EVENT", ticketPriceCents: 2000, ticketCapacity: 2 });
    const a = await post("/api/donations", gift(c.id, { amount: 4000, tickets: 2 }));
    expect(a.status, a.text).toBe(201);
    const pi = a.body.paymentIntentId as string;
    const declined = await deliver("payment_intent.payment_failed", {
      id: pi,
      object: "payment_intent",
      status: "requires_payment_method",
      amount: 4000,
      last_payment_error: { type: "card_error", code: "card_declined", message: "Your card was declined." },
      metadata: { donationId: a.body.id },
    });
    expect(declined.status, declined.text).toBe(200);
    expect(await row(a.body.id)).toMatchObject({ status: "PENDING", failureReason: "Your card was declined." });
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(2);
    const refused = await post("/api/donations", gift(c.id, { amount: 2000, tickets: 1 }));
    expect(refused.body).toEqual({ error: "Sold out", status: 409 });

    await ageHold(a.body.id);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect(only(`/v1/payment_intents/${pi}/cancel`).form.get("cancellation_reason")).toBe("abandoned");
    expect(await row(a.body.id)).toMatchObject({ status: "FAILED", failureReason: "Ticket hold expired after 30 minutes" });
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(0);
    const b = await post("/api/donations", gift(c.id, { amount: 4000, tickets: 2 }));
    expect(b.status, b.text).toBe(201);
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(2);
  });

  it("Stripe failing during the cancel leaves the hold for the next run", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE", type: "EVENT", ticketPriceCents: 2000, ticketCapacity: 5 });
    const res = await post("/api/donations", gift(c.id, { amount: 2000, tickets: 1 }));
    const pi = res.body.paymentIntentId as string;
    await ageHold(res.body.id);
    fail(`POST /v1/payment_intents/${pi}/cancel`);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect((await row(res.body.id)).status).toBe("PENDING");
    failing.clear();
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect((await row(res.body.id)).status).toBe("FAILED");
    expect((await campaignOf(c.id, owner)).ticketsSold).toBe(0);
  }, 30_000);

  it("payments Stripe could not start (our outage) don't count against the client's IP", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    const ip = randomIp();
    fail("POST /v1/payment_intents");
    for (let i = 0; i < 5; i++) expect((await post("/api/donations", gift(c.id), { ip })).status).toBe(502);
    failing.clear();
    expect((await post("/api/donations", gift(c.id), { ip })).status).toBe(201);
  }, 60_000);
});

describe("abandoned checkouts in Stripe mode", () => {
  const age = (id: string) => ageDonation(id, "25 hours");

  it("the worker cancels an unpaid PaymentIntent after 24 hours (abandoned, keyed by the donation), then fails the donation `abandoned`", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    const fresh = await post("/api/donations", gift(c.id));
    const res = await post("/api/donations", gift(c.id));
    expect(res.status, res.text).toBe(201);
    await age(res.body.id);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });

    expectAbandonedCancel(res.body);
    expect(await row(res.body.id)).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
    expect(sent(`/v1/payment_intents/${fresh.body.paymentIntentId}/cancel`)).toHaveLength(0);
    expect((await row(fresh.body.id)).status).toBe("PENDING");

    // Stripe's payment_intent.canceled follows: acknowledged, the reason stays.
    await deliverAbandoned(res.body);
    expect(await row(res.body.id)).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
  });

  it("a PaymentIntent that succeeded at Stripe is not abandoned: payment_intent.succeeded settles it", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE" });
    const res = await post("/api/donations", gift(c.id));
    const pi = res.body.paymentIntentId as string;
    intentStatus.set(pi, "succeeded");
    await age(res.body.id);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect((await row(res.body.id)).status).toBe("PENDING");
    await deliverPaid(res.body, 2500);
    expect((await row(res.body.id)).status).toBe("SUCCEEDED");
  });

  it("a recurring gift's unpaid first invoice: the subscription is canceled (DELETE), the donation FAILED `abandoned`, the plan CANCELED", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE", allowRecurring: true });
    const res = await post("/api/donations", gift(c.id, { recurringInterval: "MONTH" }));
    expect(res.status, res.text).toBe(201);
    const sub = res.body.subscriptionId as string;
    await age(res.body.id);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect(requests.filter((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${sub}`)).toHaveLength(1);
    expect(sent(`/v1/payment_intents/${res.body.paymentIntentId}/cancel`)).toHaveLength(0);
    expect(await row(res.body.id)).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
    const [plan] = await (await testDb()).select().from(recurringPlans).where(eq(recurringPlans.subscriptionId, sub));
    expect(plan.status).toBe("CANCELED");
  });

  it("a subscription Stripe already expired (answered as missing) is abandoned all the same; a Stripe outage leaves it for the next run", async () => {
    const c = await newCampaign(org, owner.token, { status: "ACTIVE", allowRecurring: true });
    const expired = await post("/api/donations", gift(c.id, { recurringInterval: "MONTH" }));
    const outage = await post("/api/donations", gift(c.id, { recurringInterval: "YEAR" }));
    endedSubscriptions.add(expired.body.subscriptionId);
    fail(`DELETE /v1/subscriptions/${outage.body.subscriptionId}`);
    await age(expired.body.id);
    await age(outage.body.id);
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect(await row(expired.body.id)).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
    expect((await row(outage.body.id)).status).toBe("PENDING");
    failing.clear();
    await runWorkerOnce(await testDb(), { orgIds: [org.id] });
    expect(await row(outage.body.id)).toMatchObject({ status: "FAILED", failureReason: "abandoned" });
  }, 30_000);
});

describe("sandbox routes in Stripe mode", () => {
  it("answer 404 like unknown routes", async () => {
    const created = await post("/api/donations", gift((await newCampaign(org, owner.token, { status: "ACTIVE" })).id));
    const confirm = await post("/api/sandbox/payments/confirm", {
      clientSecret: created.body.clientSecret,
      cardNumber: "4242424242424242",
    });
    expect(confirm.status).toBe(404);
    expect(confirm.body).toEqual({ error: "Not found", status: 404 });
    const complete = await post(`/api/sandbox/accounts/${accountId}/complete`, undefined, { token: owner.token });
    expect(complete.status).toBe(404);
    expect(complete.body.status).toBe(404);
    const renew = await post(`/api/sandbox/subscriptions/sub_anything/renew`, undefined, { token: owner.token });
    expect(renew.status).toBe(404);
    expect(renew.body.status).toBe(404);
    // Nothing changed: the donation is still PENDING.
    const db = await testDb();
    const [row] = await db.select().from(donations).where(eq(donations.id, created.body.id));
    expect(row.status).toBe("PENDING");
  });
});
