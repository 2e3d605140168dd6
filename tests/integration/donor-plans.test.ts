/**
 * A donor managing their own recurring plans from their account, through the donor API:
 * POST /api/donor/orgs/:orgSlug/recurring-plans/:id/cancel, PATCH …/recurring-plans/:id
 * `{ amount }` and POST …/recurring-plans/:id/payment-method, in sandbox mode (the sandbox
 * processor, its card form and its events through the webhook path) and in Stripe mode (the
 * real stripe SDK pointed at a local fake Stripe API that records every request).
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, donationEvents, donations, outbox, recurringPlans, webhookEvents } from "@/db/schema";
import { coverFeeCents } from "@/lib/money";
import {
  customerSubscriptionDeleted,
  invoicePaymentSucceeded,
  processorId,
  setupIntentSucceeded,
  signedEvent,
} from "@/lib/processor/event-factory";
import { sandboxId } from "@/lib/processor/sandbox";
import { getSandboxProcessor } from "@/lib/services/processor/get-processor";
import { firstDonationOfSandboxSubscription, sandboxDefaultPaymentMethod } from "@/lib/processor/sandbox-subscriptions";
import { call, get, newOrg, post, type ApiResponse, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import {
  creationReply,
  newSubscription,
  ok,
  randomId,
  SERVER_ERROR,
  stripeError,
  unrecognized,
  useFakeStripe,
  type StripeReply,
  type StripeRequest,
  stripeEventOf,
} from "../helpers/fake-stripe";
import {
  donorSessionCookieFor,
  activeCampaign,
  activeOrg,
  CARD_DECLINED,
  CARD_OK,
  paidDonation,
  randomEmail,
  type Campaign,
  type Org,
} from "../helpers/records";

const APP_ORIGIN = "http://localhost:3000";

const asDonor = async (donorId: string, orgId: string) => ({
  headers: { cookie: await donorSessionCookieFor(donorId, orgId), origin: APP_ORIGIN, "sec-fetch-site": "same-origin" },
});

type Plan = { planId: string; donorId: string; subscriptionId: string; email: string };

const planPath = (org: Org, planId: string, tail = "") => `/api/donor/orgs/${org.slug}/recurring-plans/${planId}${tail}`;

async function cancelAs(org: Org, p: Plan, donorId = p.donorId) {
  return post(planPath(org, p.planId, "/cancel"), undefined, await asDonor(donorId, org.id));
}
async function changeAmount(org: Org, p: Plan, amount: unknown, donorId = p.donorId) {
  return call("PATCH", planPath(org, p.planId), { ...(await asDonor(donorId, org.id)), body: { amount } });
}
async function startCardChange(org: Org, p: Plan, donorId = p.donorId) {
  return post(planPath(org, p.planId, "/payment-method"), undefined, await asDonor(donorId, org.id));
}

async function planRow(id: string) {
  const db = await testDb();
  const [p] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, id));
  return p;
}

async function emailsOf(orgId: string, template: string) {
  const db = await testDb();
  return db
    .select({ dedupeKey: outbox.dedupeKey, payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.orgId, orgId), eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = ${template}`));
}

async function canceledEventsOf(orgId: string) {
  const db = await testDb();
  const rows = await db
    .select({ payload: webhookEvents.payload })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.orgId, orgId), eq(webhookEvents.type, "recurring_plan.canceled")));
  return rows.map((r) => (r.payload as { data: Record<string, unknown> }).data);
}

async function renewalsOf(planId: string) {
  const db = await testDb();
  return db
    .select({ amount: donations.amount, feeCents: donations.feeCents, status: donations.status })
    .from(donations)
    .where(and(eq(donations.recurringPlanId, planId), eq(donations.isRenewal, true)))
    .orderBy(asc(donations.createdAt));
}

async function sandboxPlan(campaign: Campaign, extra: Record<string, unknown> = {}): Promise<Plan> {
  const email = randomEmail("monthly");
  const d = await paidDonation(campaign.id, { amount: 2000, recurringInterval: "MONTH", email, ...extra });
  return { planId: d.recurringPlanId, donorId: d.donorId, subscriptionId: d.subscriptionId, email };
}

function expectError(res: ApiResponse, status: number, error: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ error, status });
}

describe("sandbox mode", () => {
  let owner: TestUser;
  let org: Org;
  let campaign: Campaign;
  let other: { org: Org; plan: Plan };

  beforeAll(async () => {
    ({ owner, org } = await activeOrg());
    campaign = await activeCampaign(org, owner, { title: "Monthly heroes", minAmountCents: 1000 });
    const o = await activeOrg();
    const c = await activeCampaign(o.org, o.owner);
    other = { org: o.org, plan: await sandboxPlan(c) };
  });

  describe("access", () => {
    it("another donor's plan, or another organization's, is 404 Recurring plan not found on every write", async () => {
      const mine = await sandboxPlan(campaign);
      const theirs = await sandboxPlan(campaign);
      // Signed in as `mine`'s donor, acting on `theirs`.
      expectError(await cancelAs(org, theirs, mine.donorId), 404, "Recurring plan not found");
      expectError(await changeAmount(org, theirs, 3000, mine.donorId), 404, "Recurring plan not found");
      expectError(await startCardChange(org, theirs, mine.donorId), 404, "Recurring plan not found");
      // Another organization's plan through this organization's path.
      const foreign = { ...other.plan };
      expectError(await cancelAs(org, foreign, mine.donorId), 404, "Recurring plan not found");
      expectError(await changeAmount(org, foreign, 3000, mine.donorId), 404, "Recurring plan not found");
      // Nothing changed.
      expect(await planRow(theirs.planId)).toMatchObject({ status: "ACTIVE", amount: 2000, canceledBy: null });
      expect(await planRow(foreign.planId)).toMatchObject({ status: "ACTIVE", amount: 2000, canceledBy: null });
    });

    it("without the donor cookie the writes are 401; a cross-site write with it is 403", async () => {
      const p = await sandboxPlan(campaign);
      const noCookie = { headers: { origin: APP_ORIGIN, "sec-fetch-site": "same-origin" } };
      expectError(await post(planPath(org, p.planId, "/cancel"), undefined, noCookie), 401, "Unauthorized");
      expectError(await call("PATCH", planPath(org, p.planId), { ...noCookie, body: { amount: 3000 } }), 401, "Unauthorized");
      // A staff token is no donor.
      expectError(await post(planPath(org, p.planId, "/cancel"), undefined, { ...noCookie, token: owner.token }), 401, "Unauthorized");
      // The cookie of another organization's donor does not sign in here.
      const foreignCookie = await asDonor(other.plan.donorId, other.org.id);
      expectError(await post(planPath(org, p.planId, "/cancel"), undefined, foreignCookie), 401, "Unauthorized");
      const crossSite = {
        headers: { cookie: await donorSessionCookieFor(p.donorId, org.id), origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      };
      expectError(await post(planPath(org, p.planId, "/cancel"), undefined, crossSite), 403, "Forbidden");
      expect(await planRow(p.planId)).toMatchObject({ status: "ACTIVE", canceledBy: null });
    });
  });

  describe("PATCH /api/donor/orgs/:orgSlug/recurring-plans/:id", () => {
    it("changes the amount from the next charge on: the next sandbox renewal charges and records the new amount", async () => {
      const p = await sandboxPlan(campaign);
      const res = await changeAmount(org, p, 3500);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: p.planId, amount: 3500, status: "ACTIVE", canceledBy: null });
      expect((await planRow(p.planId)).amount).toBe(3500);
      const renew = await post(`/api/sandbox/subscriptions/${p.subscriptionId}/renew`, undefined, { token: owner.token });
      expect(renew.status, renew.text).toBe(202);
      expect(await renewalsOf(p.planId)).toEqual([{ amount: 3500, feeCents: 0, status: "SUCCEEDED" }]);
      // The donor's list shows it too.
      const list = await get(`/api/donor/orgs/${org.slug}/recurring-plans`, await asDonor(p.donorId, org.id));
      expect(list.status, list.text).toBe(200);
      expect(list.body.data.find((x: { id: string }) => x.id === p.planId)).toMatchObject({
        amount: 3500,
        donationCount: 2,
        totalCents: 5500,
      });
    });

    it("a plan whose first gift covered the fees keeps covering them at the new amount", async () => {
      const p = await sandboxPlan(campaign, { coverFees: true });
      expect((await changeAmount(org, p, 5000)).status).toBe(200);
      const db = await testDb();
      const first = await firstDonationOfSandboxSubscription(db, p.subscriptionId);
      expect(first.feeCents).toBe(coverFeeCents(2000));
      await post(`/api/sandbox/subscriptions/${p.subscriptionId}/renew`, undefined, { token: owner.token });
      expect(await renewalsOf(p.planId)).toEqual([{ amount: 5000, feeCents: coverFeeCents(5000), status: "SUCCEEDED" }]);
    });

    it("checks the amount as the donate form does: the campaign's minimum, whole minor units, the API's bounds", async () => {
      const p = await sandboxPlan(campaign);
      const below = await changeAmount(org, p, 900);
      expectError(below, 400, "Validation failed");
      expect(below.body.details.fieldErrors.amount).toEqual(["Number must be greater than or equal to 1000"]);
      expect(below.body.details.codes.amount).toEqual([{ code: "amount_below_minimum", minimum: 1000 }]);
      for (const bad of [12.5, "3000", null, 50, 100_000_001]) {
        const res = await changeAmount(org, p, bad);
        expectError(res, 400, "Validation failed");
        expect(Object.keys(res.body.details.fieldErrors)).toEqual(["amount"]);
      }
      expect((await planRow(p.planId)).amount).toBe(2000);
    });

    it("a campaign that takes suggested amounts only refuses any other", async () => {
      const fixed = await activeCampaign(org, owner, { suggestedAmounts: [2000, 4000], allowCustomAmount: false });
      const p = await sandboxPlan(fixed);
      const res = await changeAmount(org, p, 3000);
      expectError(res, 400, "Validation failed");
      expect(res.body.details.codes.amount).toEqual([{ code: "not_a_suggested_amount", values: [2000, 4000] }]);
      expect((await changeAmount(org, p, 4000)).body.amount).toBe(4000);
    });
  });

  describe("POST /api/donor/orgs/:orgSlug/recurring-plans/:id/payment-method", () => {
    it("answers the sandbox card form; a declined card changes nothing; an accepted one becomes the subscription's default", async () => {
      const p = await sandboxPlan(campaign);
      const res = await startCardChange(org, p);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        mode: "sandbox",
        setupIntentId: expect.stringMatching(/^seti_sandbox_[0-9a-f]{24}$/),
        clientSecret: expect.stringMatching(/^seti_sandbox_[0-9a-f]{24}_secret_/),
        publishableKey: null,
      });
      const db = await testDb();
      const first = await firstDonationOfSandboxSubscription(db, p.subscriptionId);

      const declined = await post("/api/sandbox/setup-intents/confirm", { clientSecret: res.body.clientSecret, cardNumber: CARD_DECLINED });
      expectError(declined, 400, "Validation failed");
      expect(declined.body.details.fieldErrors.cardNumber).toEqual(["Your card was declined."]);
      expect(await sandboxDefaultPaymentMethod(db, first)).toBeNull();

      const forged = await post("/api/sandbox/setup-intents/confirm", {
        clientSecret: `${res.body.setupIntentId}_secret_forged`,
        cardNumber: CARD_OK,
      });
      expectError(forged, 404, "Card form not found");

      const ok = await post("/api/sandbox/setup-intents/confirm", { clientSecret: res.body.clientSecret, cardNumber: CARD_OK });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toEqual({ status: "succeeded", paymentMethodId: expect.stringMatching(/^pm_sandbox_/) });
      expect(await sandboxDefaultPaymentMethod(db, first)).toBe(ok.body.paymentMethodId);
      // The plan's first donation's timeline records the change, as the processor's event.
      const timeline = await db
        .select({ type: donationEvents.type, data: donationEvents.data, processorEventId: donationEvents.processorEventId })
        .from(donationEvents)
        .where(and(eq(donationEvents.donationId, first.id), eq(donationEvents.type, "setup_intent.succeeded")));
      expect(timeline).toEqual([
        {
          type: "setup_intent.succeeded",
          processorEventId: expect.stringMatching(/^evt_sandbox_/),
          data: { planId: p.planId, paymentMethodId: ok.body.paymentMethodId, defaultPaymentMethod: true },
        },
      ]);

      const again = await post("/api/sandbox/setup-intents/confirm", { clientSecret: res.body.clientSecret, cardNumber: CARD_OK });
      expectError(again, 409, "This card was already saved");
    });
  });

  describe("POST /api/donor/orgs/:orgSlug/recurring-plans/:id/cancel", () => {
    it("cancels through the processor: CANCELED by the donor, recurring_plan.canceled with canceledBy donor, audit entry, emails once", async () => {
      const p = await sandboxPlan(campaign, { firstName: "Grace", lastName: "Hopper" });
      const res = await cancelAs(org, p);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: p.planId, status: "CANCELED", canceledBy: "donor", canceledAt: expect.any(String) });

      const events = (await canceledEventsOf(org.id)).filter((e) => e.id === p.planId);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ id: p.planId, status: "CANCELED", canceledBy: "donor", donorId: p.donorId });

      const db = await testDb();
      const audit = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.orgId, org.id), eq(auditLog.targetId, p.planId)));
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({
        actorType: "donor",
        actorId: p.donorId,
        actorLabel: p.email,
        action: "recurring_plan.canceled",
        targetType: "recurring_plan",
        data: { status: "CANCELED", subscriptionId: p.subscriptionId, canceledBy: "donor" },
      });

      // The processor reports the end again (a redelivery under another event ID): no second email, no second event.
      await getSandboxProcessor().sendEvent(customerSubscriptionDeleted({ eventId: sandboxId("evt"), subscriptionId: p.subscriptionId }));
      const toDonor = (await emailsOf(org.id, "plan-canceled")).filter((e) => e.dedupeKey === `email:plan-canceled:${p.planId}`);
      expect(toDonor).toHaveLength(1);
      expect(toDonor[0].payload).toMatchObject({
        to: p.email,
        props: {
          planId: p.planId,
          amountCents: 2000,
          currency: "usd",
          interval: "MONTH",
          donorFirstName: "Grace",
          url: `${APP_ORIGIN}/o/${org.slug}/account`,
        },
      });
      const toOrg = (await emailsOf(org.id, "plan-canceled-notice")).filter(
        (e) => e.dedupeKey === `email:plan-canceled-notice:${p.planId}`,
      );
      expect(toOrg).toHaveLength(1);
      expect(toOrg[0].payload).toMatchObject({ to: "admin@goodfund-test.org", props: { planId: p.planId, donorEmail: p.email } });
      expect((await canceledEventsOf(org.id)).filter((e) => e.id === p.planId)).toHaveLength(1);
      expect(await planRow(p.planId)).toMatchObject({ status: "CANCELED", canceledBy: "donor" });
    });

    it("a CANCELED plan: cancel, amount change and card change are 409", async () => {
      const p = await sandboxPlan(campaign);
      expect((await cancelAs(org, p)).status).toBe(200);
      expectError(await cancelAs(org, p), 409, "Recurring plan is already canceled");
      expectError(await changeAmount(org, p, 3000), 409, "Recurring plan is canceled");
      expectError(await startCardChange(org, p), 409, "Recurring plan is canceled");
      expect((await planRow(p.planId)).amount).toBe(2000);
    });

    it("staff cancellation says staff, the processor ending a plan on its own says processor; neither emails the donor", async () => {
      const byStaff = await sandboxPlan(campaign);
      const staff = await post(`/api/recurring-plans/${byStaff.planId}/cancel`, undefined, { token: owner.token });
      expect(staff.status, staff.text).toBe(200);
      expect(staff.body).toMatchObject({ status: "CANCELED", canceledBy: "staff" });
      const byProcessor = await sandboxPlan(campaign);
      await getSandboxProcessor().sendEvent(
        customerSubscriptionDeleted({ eventId: sandboxId("evt"), subscriptionId: byProcessor.subscriptionId }),
      );
      const listed = await get(`/api/orgs/${org.slug}/recurring-plans?status=CANCELED&limit=100`, { token: owner.token });
      const byId = new Map(listed.body.data.map((x: { id: string; canceledBy: string }) => [x.id, x.canceledBy]));
      expect(byId.get(byStaff.planId)).toBe("staff");
      expect(byId.get(byProcessor.planId)).toBe("processor");
      const events = await canceledEventsOf(org.id);
      expect(events.find((e) => e.id === byStaff.planId)?.canceledBy).toBe("staff");
      expect(events.find((e) => e.id === byProcessor.planId)?.canceledBy).toBe("processor");
      const keys = (await emailsOf(org.id, "plan-canceled")).map((e) => e.dedupeKey);
      expect(keys).not.toContain(`email:plan-canceled:${byStaff.planId}`);
      expect(keys).not.toContain(`email:plan-canceled:${byProcessor.planId}`);
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Stripe mode: the real SDK against a fake Stripe API.

describe("Stripe mode", () => {
  const failing = new Set<string>();
  const subscriptions = new Map<string, { customer: string; product: string; currency: string; amount: number }>();
  let owner: TestUser;
  let org: Org;
  let campaign: Record<string, any>;

  const rand = randomId;
  const subscriptionBody = (id: string) => {
    const s = subscriptions.get(id)!;
    return {
      id,
      object: "subscription",
      customer: s.customer,
      status: "active",
      metadata: {},
      items: {
        object: "list",
        has_more: false,
        data: [
          {
            id: `si_${id.slice(4)}`,
            object: "subscription_item",
            price: {
              id: `price_${rand()}`,
              object: "price",
              currency: s.currency,
              product: s.product,
              unit_amount: s.amount,
              recurring: { interval: "month", interval_count: 1 },
            },
          },
        ],
      },
    };
  };

  function reply(rec: StripeRequest): StripeReply {
    const key = `${rec.method} ${rec.path}`;
    if (failing.has(key)) return SERVER_ERROR;
    const f = rec.form;
    const sub = /^\/v1\/subscriptions\/(sub_\w+)$/.exec(rec.path);
    if (sub) {
      if (!subscriptions.has(sub[1]))
        return stripeError(404, { type: "invalid_request_error", code: "resource_missing", message: "No such subscription" });
      if (rec.method === "DELETE") return { status: 200, body: { ...subscriptionBody(sub[1]), status: "canceled" } };
      if (rec.method === "POST" && f.has("items[0][price_data][unit_amount]"))
        subscriptions.get(sub[1])!.amount = Number(f.get("items[0][price_data][unit_amount]"));
      return { status: 200, body: subscriptionBody(sub[1]) };
    }
    const made = creationReply(rec);
    if (made) return made;
    switch (key) {
      case "POST /v1/subscriptions": {
        const id = `sub_${rand()}`;
        subscriptions.set(id, {
          customer: f.get("customer")!,
          product: f.get("items[0][price_data][product]")!,
          currency: f.get("items[0][price_data][currency]")!,
          amount: Number(f.get("items[0][price_data][unit_amount]")),
        });
        return ok(newSubscription(f, id, { ...subscriptionBody(id), status: "incomplete" }));
      }
      case "POST /v1/setup_intents": {
        const id = `seti_${rand()}`;
        return {
          status: 200,
          body: {
            id,
            object: "setup_intent",
            client_secret: `${id}_secret_${rand()}`,
            customer: f.get("customer"),
            usage: f.get("usage"),
            status: "requires_payment_method",
            metadata: {},
          },
        };
      }
      default:
        return unrecognized(rec);
    }
  }

  const { requests, sent } = useFakeStripe(reply, {
    env: { PAYMENTS_MODE: "stripe", STRIPE_PUBLISHABLE_KEY: "pk_test_goodfund", PLATFORM_FEE_BPS: undefined },
  });

  /** A signed processor event delivered to the webhook endpoint, as Stripe sends it. */
  async function deliver(event: Parameters<typeof signedEvent>[0]) {
    const { payload, signature } = signedEvent(event, process.env.PROCESSOR_WEBHOOK_SECRET!);
    const res = await post("/api/processor/webhooks", undefined, {
      rawBody: payload,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });
    expect(res.status, res.text).toBe(200);
    return res;
  }

  /** A monthly gift started through the API and paid (its first invoice's event), so its plan is ACTIVE. */
  async function stripePlan(extra: Record<string, unknown> = {}): Promise<Plan> {
    const email = randomEmail("stripe");
    const res = await post("/api/donations", {
      campaignId: campaign.id,
      amount: 2000,
      email,
      recurringInterval: "MONTH",
      firstName: "Ada",
      ...extra,
    });
    expect(res.status, res.text).toBe(201);
    const d = res.body;
    await deliver(
      invoicePaymentSucceeded({
        invoiceId: processorId("in"),
        subscriptionId: d.subscriptionId,
        billingReason: "subscription_create",
        amountPaidCents: d.amount + d.feeCents,
        currency: "usd",
        paymentIntentId: d.paymentIntentId,
        chargeId: processorId("ch"),
      }),
    );
    expect(await planRow(d.recurringPlanId)).toMatchObject({ status: "ACTIVE" });
    return { planId: d.recurringPlanId, donorId: d.donorId, subscriptionId: d.subscriptionId, email };
  }

  beforeAll(async () => {
    const made = await newOrg(undefined, { notificationEmail: "finance@goodfund-test.org" });
    owner = made.owner;
    const onboarding = await post(`/api/orgs/${made.org.id}/processor/onboarding`, undefined, { token: owner.token });
    expect(onboarding.status, onboarding.text).toBe(200);
    await deliver(
      stripeEventOf(processorId("evt"), "account.updated", {
        id: onboarding.body.processorAccountId,
        object: "account",
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
      }) as unknown as Parameters<typeof signedEvent>[0],
    );
    org = (await get(`/api/orgs/${made.org.id}`, { token: owner.token })).body;
    expect(org.status).toBe("ACTIVE");
    campaign = await activeCampaign(org, owner, { title: "Stripe monthly", minAmountCents: 1000 });
  });

  beforeEach(() => {
    requests.length = 0;
    failing.clear();
  });

  it("PATCH …/recurring-plans/:id replaces the subscription's item with price_data at the new amount, without proration", async () => {
    const p = await stripePlan();
    const product = subscriptions.get(p.subscriptionId)!.product;
    requests.length = 0;
    const res = await changeAmount(org, p, 4500);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ amount: 4500, status: "ACTIVE" });
    expect(sent("GET", `/v1/subscriptions/${p.subscriptionId}`)).toHaveLength(1);
    const [update] = sent("POST", `/v1/subscriptions/${p.subscriptionId}`);
    expect(Object.fromEntries(update.form)).toEqual({
      "items[0][id]": `si_${p.subscriptionId.slice(4)}`,
      "items[0][price_data][currency]": "usd",
      "items[0][price_data][product]": product,
      "items[0][price_data][unit_amount]": "4500",
      "items[0][price_data][recurring][interval]": "month",
      proration_behavior: "none",
    });
    // With covered fees the subscription charges the gift plus its fee.
    const covered = await stripePlan({ coverFees: true });
    requests.length = 0;
    expect((await changeAmount(org, covered, 3000)).status).toBe(200);
    const [coveredUpdate] = sent("POST", `/v1/subscriptions/${covered.subscriptionId}`);
    expect(coveredUpdate.form.get("items[0][price_data][unit_amount]")).toBe(String(3000 + coverFeeCents(3000)));
    expect(coveredUpdate.form.get("proration_behavior")).toBe("none");
  });

  it("PATCH …/recurring-plans/:id: a refusal by Stripe is 502 and the plan keeps its amount", async () => {
    const p = await stripePlan();
    failing.add(`POST /v1/subscriptions/${p.subscriptionId}`);
    expectError(await changeAmount(org, p, 4500), 502, "Payment processor unavailable, please try again");
    expect((await planRow(p.planId)).amount).toBe(2000);
  });

  it("POST …/payment-method creates an off-session SetupIntent for the subscription's customer; setup_intent.succeeded sets it as default", async () => {
    const p = await stripePlan();
    requests.length = 0;
    const res = await startCardChange(org, p);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      mode: "stripe",
      setupIntentId: expect.stringMatching(/^seti_/),
      clientSecret: expect.stringMatching(/^seti_\w+_secret_/),
      publishableKey: "pk_test_goodfund",
    });
    const [setup] = sent("POST", "/v1/setup_intents");
    expect(setup.form.get("customer")).toBe(subscriptions.get(p.subscriptionId)!.customer);
    expect(setup.form.get("usage")).toBe("off_session");
    expect(setup.form.get("metadata[planId]")).toBe(p.planId);
    expect(setup.form.get("metadata[subscriptionId]")).toBe(p.subscriptionId);
    expect(sent("POST", `/v1/subscriptions/${p.subscriptionId}`)).toHaveLength(0);

    // The donor confirms the card in the Payment Element; Stripe reports it.
    const pm = processorId("pm");
    const event = setupIntentSucceeded({
      setupIntentId: res.body.setupIntentId,
      customerId: subscriptions.get(p.subscriptionId)!.customer,
      paymentMethodId: pm,
      metadata: { planId: p.planId, subscriptionId: p.subscriptionId },
    });
    await deliver(event);
    const updates = sent("POST", `/v1/subscriptions/${p.subscriptionId}`);
    expect(updates.map((u) => Object.fromEntries(u.form))).toEqual([{ default_payment_method: pm }]);
    // A redelivery of the same event asks again under the same Idempotency-Key, which Stripe answers from the first.
    await deliver(event);
    const again = sent("POST", `/v1/subscriptions/${p.subscriptionId}`);
    expect(again).toHaveLength(2);
    expect(again[1].idempotencyKey).toBe(again[0].idempotencyKey);
    expect(again[0].idempotencyKey).toBe(`sub-pm-${p.subscriptionId}-${pm}`);
    expect(Object.fromEntries(again[1].form)).toEqual({ default_payment_method: pm });
  });

  it("POST …/cancel cancels the subscription at Stripe; its customer.subscription.deleted makes the plan CANCELED by the donor, with emails once", async () => {
    const p = await stripePlan();
    requests.length = 0;
    const res = await cancelAs(org, p);
    expect(res.status, res.text).toBe(200);
    expect(sent("DELETE", `/v1/subscriptions/${p.subscriptionId}`)).toHaveLength(1);
    // Stripe's event has not arrived yet: still ACTIVE, but who asked is recorded.
    expect(res.body).toMatchObject({ status: "ACTIVE" });
    expect(await planRow(p.planId)).toMatchObject({ status: "ACTIVE", canceledBy: "donor" });
    expect(await emailsOf(org.id, "plan-canceled")).toHaveLength(0);

    const ended = customerSubscriptionDeleted({ subscriptionId: p.subscriptionId });
    await deliver(ended);
    await deliver(ended);
    await deliver(customerSubscriptionDeleted({ subscriptionId: p.subscriptionId }));
    expect(await planRow(p.planId)).toMatchObject({ status: "CANCELED", canceledBy: "donor" });
    const events = (await canceledEventsOf(org.id)).filter((e) => e.id === p.planId);
    expect(events).toHaveLength(1);
    expect(events[0].canceledBy).toBe("donor");
    expect((await emailsOf(org.id, "plan-canceled")).filter((e) => e.dedupeKey === `email:plan-canceled:${p.planId}`)).toHaveLength(1);
    expect(
      (await emailsOf(org.id, "plan-canceled-notice")).filter((e) => e.dedupeKey === `email:plan-canceled-notice:${p.planId}`),
    ).toHaveLength(1);
  });

  it("a staff cancellation while the donor's is on its way to Stripe keeps the donor as the one who canceled", async () => {
    const p = await stripePlan();
    expect((await cancelAs(org, p)).status).toBe(200);
    const staff = await post(`/api/recurring-plans/${p.planId}/cancel`, undefined, { token: owner.token });
    expect(staff.status, staff.text).toBe(200);
    expect(await planRow(p.planId)).toMatchObject({ status: "ACTIVE", canceledBy: "donor" });
    await deliver(customerSubscriptionDeleted({ subscriptionId: p.subscriptionId }));
    expect(await planRow(p.planId)).toMatchObject({ status: "CANCELED", canceledBy: "donor" });
  });

  it("POST …/cancel refused by Stripe is 502 and leaves nobody recorded as having canceled", async () => {
    const p = await stripePlan();
    failing.add(`DELETE /v1/subscriptions/${p.subscriptionId}`);
    expectError(await cancelAs(org, p), 502, "Payment processor unavailable, please try again");
    expect(await planRow(p.planId)).toMatchObject({ status: "ACTIVE", canceledBy: null });
    // Later the plan ends on the processor's side: that is the processor's doing.
    await deliver(customerSubscriptionDeleted({ subscriptionId: p.subscriptionId }));
    expect(await planRow(p.planId)).toMatchObject({ status: "CANCELED", canceledBy: "processor" });
    expect((await emailsOf(org.id, "plan-canceled")).filter((e) => e.dedupeKey === `email:plan-canceled:${p.planId}`)).toHaveLength(0);
  });
});
