/**
 * POST /api/orgs/:idOrSlug/processor/subscriptions/adopt through the REAL stripe SDK against the
 * local fake Stripe API: the connected account's active subscriptions, listed page by page with
 * the Stripe-Account header, become recurring plans; their renewals then arrive through
 * invoice.payment_succeeded like any plan's.
 */
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { donations, recurringPlans } from "@/db/schema";
import { get, newCampaign, newOrg, post, type ApiResponse, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import {
  creationReply,
  invoicePayment,
  nowSec,
  ok,
  randomId,
  stripeEventOf,
  unrecognized,
  useFakeStripe,
  type StripeRequest,
} from "../helpers/fake-stripe";
import { memberOf, outsider } from "../helpers/records";

/** The subscriptions each connected account has at the fake, in list order. */
const accounts = new Map<string, Record<string, unknown>[]>();
const PAGE = 3;

function subscription(email: string | null, amount: number, fields: { interval?: string; count?: number; currency?: string } = {}) {
  const id = `sub_${randomId()}`;
  return {
    id,
    object: "subscription",
    status: "active",
    currency: fields.currency ?? "usd",
    created: nowSec() - 86_400 * 90,
    start_date: nowSec() - 86_400 * 90,
    customer: { id: `cus_${randomId()}`, object: "customer", email, name: email ? "Jo Donor" : null },
    items: {
      object: "list",
      data: [
        {
          id: `si_${randomId()}`,
          object: "subscription_item",
          quantity: 1,
          price: {
            id: `price_${randomId()}`,
            object: "price",
            unit_amount: amount,
            recurring: { interval: fields.interval ?? "month", interval_count: fields.count ?? 1 },
          },
        },
      ],
    },
    metadata: {},
  };
}

function route(rec: StripeRequest) {
  const made = creationReply(rec);
  if (made) return made;
  if (rec.method === "GET" && rec.path === "/v1/subscriptions") {
    const list = accounts.get(String(rec.headers["stripe-account"])) ?? [];
    const after = rec.query.get("starting_after");
    const from = after ? list.findIndex((s) => s.id === after) + 1 : 0;
    const data = list.slice(from, from + PAGE);
    return ok({ object: "list", url: "/v1/subscriptions", has_more: from + PAGE < list.length, data });
  }
  if (rec.method === "GET" && rec.path === "/v1/invoice_payments") {
    const invoice = rec.query.get("invoice");
    return ok({
      object: "list",
      url: "/v1/invoice_payments",
      has_more: false,
      data: [
        invoicePayment(
          invoice,
          { id: `pi_renew_${invoice}`, object: "payment_intent", latest_charge: `ch_renew_${invoice}` },
          { status: "paid" },
        ),
      ],
    });
  }
  return unrecognized(rec);
}

const stripe = useFakeStripe(route, { env: { PAYMENTS_MODE: "stripe" } });
const signer = new Stripe("sk_test_x");

function deliver(type: string, object: Record<string, unknown>, account?: string): Promise<ApiResponse> {
  const payload = JSON.stringify({ ...stripeEventOf(`evt_${randomId()}`, type, object), ...(account ? { account } : {}) });
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: process.env.PROCESSOR_WEBHOOK_SECRET! });
  return post("/api/processor/webhooks", undefined, {
    rawBody: payload,
    headers: { "content-type": "application/json", "stripe-signature": signature },
  });
}

async function connectedOrg(): Promise<{ owner: TestUser; org: { id: string; slug: string }; accountId: string; campaignId: string }> {
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
  const campaign = await newCampaign(org, owner.token, { status: "ACTIVE", title: "Monthly givers" });
  return { owner, org, accountId, campaignId: campaign.id };
}

const adopt = (orgId: string, token: string, campaignId: string) =>
  post(`/api/orgs/${orgId}/processor/subscriptions/adopt`, { campaignId }, { token });

describe("POST /api/orgs/:idOrSlug/processor/subscriptions/adopt", () => {
  it("POST /api/orgs/:idOrSlug/processor/subscriptions/adopt makes every page's active subscriptions plans, once", async () => {
    const { owner, org, accountId, campaignId } = await connectedOrg();
    const subs = [
      ...Array.from({ length: 7 }, (_, i) => subscription(`monthly-${i}-${randomId()}@example.org`, 1000 + i)),
      subscription(`yearly-${randomId()}@example.org`, 12_000, { interval: "year" }),
      subscription(null, 500),
      subscription(`euro-${randomId()}@example.org`, 900, { currency: "eur" }),
    ];
    accounts.set(accountId, subs);
    stripe.requests.length = 0;
    const res = await adopt(org.id, owner.token, campaignId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ adopted: 8, alreadyKnown: 0 });
    expect(res.body.skipped).toEqual([
      { subscriptionId: subs[8].id, reason: "no_email" },
      { subscriptionId: subs[9].id, reason: "currency_not_accepted" },
    ]);
    // Four pages, each on the connected account, each after the last one's final subscription.
    const lists = stripe.sent("GET", "/v1/subscriptions");
    expect(lists).toHaveLength(4);
    for (const l of lists) {
      expect(l.headers["stripe-account"]).toBe(accountId);
      expect(l.query.get("status")).toBe("active");
    }
    expect(lists.slice(1).map((l) => l.query.get("starting_after"))).toEqual([subs[2].id, subs[5].id, subs[8].id]);

    const db = await testDb();
    const plans = await db.select().from(recurringPlans).where(eq(recurringPlans.orgId, org.id));
    expect(plans).toHaveLength(8);
    const yearly = plans.find((p) => p.subscriptionId === subs[7].id)!;
    expect(yearly).toMatchObject({ status: "ACTIVE", amount: 12_000, interval: "YEAR", campaignId });
    const listed = await get(`/api/orgs/${org.id}/recurring-plans`, { token: owner.token });
    expect(listed.status).toBe(200);

    // Again: nothing new, every one known.
    const again = await adopt(org.id, owner.token, campaignId);
    expect(again.body).toMatchObject({ adopted: 0, alreadyKnown: 8 });
    expect(await db.select().from(recurringPlans).where(eq(recurringPlans.orgId, org.id))).toHaveLength(8);
    // Adopting counts no gift.
    expect((await get(`/api/campaigns/${campaignId}`, { token: owner.token })).body).toMatchObject({
      raisedAmountCents: 0,
      donationCount: 0,
    });
    expect(await findViolations(db, [org.id])).toEqual([]);
    // Each run is one audit entry, by the owner, with what it did.
    const log = await get(`/api/orgs/${org.id}/audit-log?action=subscriptions.adopted`, { token: owner.token });
    expect(log.status).toBe(200);
    expect(log.body.data.map((e: { data: unknown }) => e.data)).toEqual([
      { campaignId, adopted: 0, alreadyKnown: 8, skipped: 2 },
      { campaignId, adopted: 8, alreadyKnown: 0, skipped: 2 },
    ]);
    expect(log.body.data[0]).toMatchObject({ actor: { type: "user", id: owner.sub }, target: { type: "organization", id: org.id } });
  });

  it("an adopted subscription's renewal arrives through invoice.payment_succeeded as a SUCCEEDED gift of its plan", async () => {
    const { owner, org, accountId, campaignId } = await connectedOrg();
    const sub = subscription(`renewing-${randomId()}@example.org`, 2500);
    accounts.set(accountId, [sub]);
    const res = await adopt(org.id, owner.token, campaignId);
    expect(res.body.adopted).toBe(1);
    const invoiceId = `in_cycle_${randomId()}`;
    const ev = await deliver(
      "invoice.payment_succeeded",
      {
        id: invoiceId,
        object: "invoice",
        billing_reason: "subscription_cycle",
        amount_paid: 2500,
        currency: "usd",
        status: "paid",
        parent: { type: "subscription_details", subscription_details: { subscription: sub.id } },
      },
      accountId,
    );
    expect(ev.status, ev.text).toBe(200);
    const db = await testDb();
    const [renewal] = await db.select().from(donations).where(eq(donations.invoiceId, invoiceId));
    expect(renewal).toMatchObject({
      status: "SUCCEEDED",
      isRenewal: true,
      amount: 2500,
      subscriptionId: sub.id,
      campaignId,
      recurringPlanId: res.body.planIds[0],
    });
    expect((await get(`/api/campaigns/${campaignId}`, { token: owner.token })).body).toMatchObject({
      raisedAmountCents: 2500,
      donationCount: 1,
    });
    expect(await findViolations(db, [org.id])).toEqual([]);
  });

  it("POST /api/orgs/:idOrSlug/processor/subscriptions/adopt answers 401, 403 (non-member, ADMIN), 404 and 409 before onboarding", async () => {
    const { owner, org, campaignId } = await connectedOrg();
    expect((await post(`/api/orgs/${org.id}/processor/subscriptions/adopt`, { campaignId })).status).toBe(401);
    expect((await adopt(org.id, (await outsider()).token, campaignId)).status).toBe(403);
    expect((await adopt(org.id, (await memberOf(org, owner, "ADMIN")).token, campaignId)).status).toBe(403);
    expect((await adopt("org_unknown00000000000000", owner.token, campaignId)).status).toBe(404);
    const other = await connectedOrg();
    const foreign = await adopt(org.id, owner.token, other.campaignId);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: "Campaign not found", status: 404 });
    const { owner: o2, org: fresh } = await newOrg();
    const c = await newCampaign(fresh, o2.token);
    expect((await adopt(fresh.id, o2.token, c.id)).status).toBe(409);
  });
});
