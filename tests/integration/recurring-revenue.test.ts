/**
 * Keeping recurring revenue, through the real HTTP stack and the sandbox processor (which sends
 * Stripe-shaped, signed events to the webhook endpoint), and with events of the recorded Stripe
 * fixtures' shapes delivered directly: every interval; a declined renewal → PAST_DUE (one email per
 * invoice, `recurring_plan.past_due`) → the donor's new card → the retry recovers it; retries that
 * run out → CANCELED by the processor and the donor told; duplicated and reordered events keep the
 * plan's state and every aggregate exact; the card's expiry kept from `charge.succeeded`.
 */
import { parse } from "csv-parse/sync";
import { and, eq, inArray, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { donations, outbox, planInvoiceFailures, recurringPlans, webhookEvents } from "@/db/schema";
import type { EmailMessage } from "@/lib/email/types";
import { RECURRING_INTERVALS } from "@/lib/schemas/donations";
import { remindExpiringCards } from "@/lib/services/recurring/remind-expiring-cards";
import { remindUnfinishedGifts } from "@/lib/services/recurring/remind-unfinished-gifts";
import { monthlyUpsellCents } from "@/lib/monthly-upsell";
import { deliver, chargeSucceededEvent, invoiceFailedEvent, invoicePaidEvent, stripeId } from "../fixtures/processor";
import { get, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";
import {
  activeCampaign,
  activeOrg,
  CARD_OK,
  donorSessionCookieFor,
  memberOf,
  outsider,
  paidDonation,
  startDonation,
  type Campaign,
  type Org,
} from "../helpers/records";

const APP_ORIGIN = "http://localhost:3000";

let owner: TestUser;
let org: Org;
let campaign: Campaign;

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  campaign = await activeCampaign(org, owner, { title: "Monthly friends" });
});

type Paid = Record<string, any>;

const monthlyGift = (extra: Record<string, unknown> = {}) =>
  paidDonation(campaign.id, { amount: 2000, recurringInterval: "MONTH", locale: "es", ...extra }) as Promise<Paid>;

const renew = async (subscriptionId: string, token = owner.token) => {
  const res = await post(`/api/sandbox/subscriptions/${subscriptionId}/renew`, undefined, { token });
  expect(res.status, res.text).toBe(202);
  return res.body.outcome as "paid" | "failed" | "canceled";
};

const declineFromNowOn = async (subscriptionId: string) => {
  const res = await post(`/api/sandbox/subscriptions/${subscriptionId}/fail-next-renewal`, undefined, { token: owner.token });
  expect(res.status, res.text).toBe(200);
};

async function planOf(planId: string) {
  const [p] = await (await testDb()).select().from(recurringPlans).where(eq(recurringPlans.id, planId));
  return p;
}

async function planView(planId: string) {
  const res = await get(`/api/orgs/${org.slug}/recurring-plans`, { token: owner.token });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as any[]).find((p) => p.id === planId);
}

/** The emails queued about a plan's payments, oldest first. */
async function planEmails(planId: string) {
  const rows = await (
    await testDb()
  )
    .select({ dedupeKey: outbox.dedupeKey, payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), sql`${outbox.payload} -> 'props' ->> 'planId' = ${planId}`))
    .orderBy(outbox.id);
  return rows.map((r) => ({ dedupeKey: r.dedupeKey, ...(r.payload as unknown as EmailMessage<"plan-payment-issue">) }));
}

/** Outbound webhook events of the organization about the plan, oldest first. */
async function planEvents(planId: string) {
  const rows = await (
    await testDb()
  )
    .select({ type: webhookEvents.type })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.orgId, org.id),
        like(webhookEvents.type, "recurring_plan.%"),
        sql`${webhookEvents.payload} -> 'data' ->> 'id' = ${planId}`,
      ),
    )
    .orderBy(webhookEvents.createdAt);
  return rows.map((r) => r.type);
}

async function succeededOfPlan(planId: string) {
  return (await testDb())
    .select({ amount: donations.amount, isRenewal: donations.isRenewal, invoiceId: donations.invoiceId })
    .from(donations)
    .where(and(eq(donations.recurringPlanId, planId), eq(donations.status, "SUCCEEDED")));
}

async function expectExactAggregates() {
  expect(await findViolations(await testDb(), [org.id])).toEqual([]);
}

/** The donor replaces the plan's card from their account page (sandbox card form). */
async function replaceCard(gift: Paid) {
  const headers = { cookie: await donorSessionCookieFor(gift.donorId, org.id), origin: APP_ORIGIN, "sec-fetch-site": "same-origin" };
  const setup = await post(`/api/donor/orgs/${org.slug}/recurring-plans/${gift.recurringPlanId}/payment-method`, undefined, { headers });
  expect(setup.status, setup.text).toBe(200);
  const confirmed = await post("/api/sandbox/setup-intents/confirm", { clientSecret: setup.body.clientSecret, cardNumber: CARD_OK });
  expect(confirmed.status, confirmed.text).toBe(200);
}

describe("recurring intervals", () => {
  it.each(RECURRING_INTERVALS)(
    "a %s gift in sandbox mode: the plan, its first gift and its renewal keep the interval",
    async (interval) => {
      const gift = await paidDonation(campaign.id, { amount: 1200, recurringInterval: interval });
      expect(gift.recurringInterval).toBe(interval);
      expect(await renew(gift.subscriptionId)).toBe("paid");
      const plan = await planView(gift.recurringPlanId);
      expect(plan).toMatchObject({ interval, status: "ACTIVE", donationCount: 2, totalCents: 2400 });
      // The sandbox reports the card of each charge.
      expect(plan.card).toMatchObject({ last4: "4242", expMonth: 12 });
      await expectExactAggregates();
    },
  );

  it("POST /api/donations refuses an interval that doesn't exist (400 on recurringInterval)", async () => {
    const res = await post("/api/donations", { campaignId: campaign.id, amount: 2500, email: "x@example.org", recurringInterval: "DAY" });
    expect(res.status).toBe(400);
    expect(res.body.details.fieldErrors.recurringInterval).toBeDefined();
  });
});

describe("failed renewals in the sandbox", () => {
  it("failure → PAST_DUE with the next retry, one email per invoice in the donor's language → new card → the retry recovers the plan, counted once", async () => {
    const gift = await monthlyGift();
    expect(await renew(gift.subscriptionId)).toBe("paid");
    await declineFromNowOn(gift.subscriptionId);

    expect(await renew(gift.subscriptionId)).toBe("failed");
    let plan = await planView(gift.recurringPlanId);
    expect(plan.status).toBe("PAST_DUE");
    expect(plan.pastDueAt).not.toBeNull();
    const retry = Date.parse(plan.nextRetryAt);
    expect(retry).toBeGreaterThan(Date.now() + 2 * 86_400_000);

    // The processor's second attempt fails too: still past due, the retry moves, no second email.
    expect(await renew(gift.subscriptionId)).toBe("failed");
    plan = await planView(gift.recurringPlanId);
    expect(plan.status).toBe("PAST_DUE");
    const emails = await planEmails(gift.recurringPlanId);
    expect(emails).toHaveLength(1);
    expect(emails[0].template).toBe("plan-payment-issue");
    expect(emails[0].to).toBe(gift.email);
    expect(emails[0].props).toMatchObject({ kind: "renewal-failed", locale: "es", amountCents: 2000, interval: "MONTH" });
    expect(emails[0].props.url).toBe(`http://localhost:3000/o/${org.slug}/account#plans-title`);
    expect(await planEvents(gift.recurringPlanId)).toEqual(["recurring_plan.created", "recurring_plan.past_due"]);
    // Nothing was counted for the declined invoice.
    expect(await succeededOfPlan(gift.recurringPlanId)).toHaveLength(2);
    await expectExactAggregates();

    await replaceCard(gift);
    expect(await renew(gift.subscriptionId)).toBe("paid");
    plan = await planView(gift.recurringPlanId);
    expect(plan).toMatchObject({ status: "ACTIVE", pastDueAt: null, nextRetryAt: null, donationCount: 3, totalCents: 6000 });
    expect(await planEvents(gift.recurringPlanId)).toEqual([
      "recurring_plan.created",
      "recurring_plan.past_due",
      "recurring_plan.recovered",
    ]);
    const [failure] = await (await testDb()).select().from(planInvoiceFailures).where(eq(planInvoiceFailures.planId, gift.recurringPlanId));
    expect(failure).toMatchObject({ attemptCount: 2, amountDueCents: 2000, lostAt: null });
    expect(failure.recoveredAt).not.toBeNull();
    // The recovered invoice is the renewal's: counted once.
    const renewals = (await succeededOfPlan(gift.recurringPlanId)).filter((d) => d.invoiceId === failure.invoiceId);
    expect(renewals).toHaveLength(1);
    await expectExactAggregates();
  });

  it("retries that run out → CANCELED by the processor, the donor told once, the unpaid invoice lost and never counted", async () => {
    const gift = await monthlyGift({ locale: "de" });
    await declineFromNowOn(gift.subscriptionId);
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await renew(gift.subscriptionId));
    expect(outcomes).toEqual(["failed", "failed", "failed", "canceled"]);
    const plan = await planView(gift.recurringPlanId);
    expect(plan).toMatchObject({ status: "CANCELED", canceledBy: "processor", nextRetryAt: null, donationCount: 1, totalCents: 2000 });
    const emails = await planEmails(gift.recurringPlanId);
    expect(emails.map((e) => e.props.kind)).toEqual(["renewal-failed", "gave-up"]);
    expect(emails.every((e) => e.props.locale === "de")).toBe(true);
    expect(await planEvents(gift.recurringPlanId)).toEqual([
      "recurring_plan.created",
      "recurring_plan.past_due",
      "recurring_plan.canceled",
    ]);
    const [failure] = await (await testDb()).select().from(planInvoiceFailures).where(eq(planInvoiceFailures.planId, gift.recurringPlanId));
    expect(failure.lostAt).not.toBeNull();
    expect(failure.recoveredAt).toBeNull();
    // A renewal attempt after the end is refused by nothing, but counts nothing either.
    await expectExactAggregates();
  });

  it("the sandbox controls answer 401 without a token, 403 to a non-member or a MEMBER, 404 for an unknown subscription", async () => {
    const gift = await monthlyGift();
    const path = `/api/sandbox/subscriptions/${gift.subscriptionId}/fail-next-renewal`;
    expect((await post(path)).status).toBe(401);
    expect((await post(path, undefined, { token: (await outsider()).token })).status).toBe(403);
    expect((await post(path, undefined, { token: (await memberOf(org, owner, "MEMBER")).token })).status).toBe(403);
    expect((await post("/api/sandbox/subscriptions/sub_sandbox_nope/fail-next-renewal", undefined, { token: owner.token })).status).toBe(
      404,
    );
    expect((await planOf(gift.recurringPlanId)).status).toBe("ACTIVE");
  });
});

describe("invoice events of Stripe's shapes: duplicated and reordered", () => {
  it("the same failure delivered twice (two event IDs) and an older attempt after a newer one: one email, the newest retry kept", async () => {
    const gift = await monthlyGift();
    const invoiceId = stripeId("in_1");
    const later = Math.floor(Date.now() / 1000) + 5 * 86_400;
    const first = invoiceFailedEvent(gift.subscriptionId, { invoiceId, amountDue: 2000, attemptCount: 2, nextAttempt: later });
    expect((await deliver(first)).status).toBe(200);
    expect((await deliver(first)).body).toEqual({ received: true, duplicate: true });
    const again = invoiceFailedEvent(gift.subscriptionId, { invoiceId, amountDue: 2000, attemptCount: 2, nextAttempt: later });
    expect((await deliver(again)).status).toBe(200);
    const stale = invoiceFailedEvent(gift.subscriptionId, { invoiceId, amountDue: 2000, attemptCount: 1, nextAttempt: later - 86_400 });
    expect((await deliver(stale)).status).toBe(200);
    const plan = await planOf(gift.recurringPlanId);
    expect(plan.status).toBe("PAST_DUE");
    expect(plan.nextRetryAt?.getTime()).toBe(later * 1000);
    expect(await planEmails(gift.recurringPlanId)).toHaveLength(1);

    // Recovery by the invoice's payment; a late duplicate of the payment and a late failure change nothing.
    const paid = invoicePaidEvent(gift.subscriptionId, { billingReason: "subscription_cycle", amountPaid: 2000, invoiceId });
    expect((await deliver(paid)).status).toBe(200);
    const paidAgain = invoicePaidEvent(gift.subscriptionId, { billingReason: "subscription_cycle", amountPaid: 2000, invoiceId });
    expect((await deliver(paidAgain)).status).toBe(200);
    const late = invoiceFailedEvent(gift.subscriptionId, { invoiceId, amountDue: 2000, attemptCount: 3, nextAttempt: later });
    expect((await deliver(late)).status).toBe(200);
    expect((await planOf(gift.recurringPlanId)).status).toBe("ACTIVE");
    expect(await succeededOfPlan(gift.recurringPlanId)).toHaveLength(2);
    expect(await planEmails(gift.recurringPlanId)).toHaveLength(1);
    expect(await planEvents(gift.recurringPlanId)).toEqual([
      "recurring_plan.created",
      "recurring_plan.past_due",
      "recurring_plan.recovered",
    ]);
    await expectExactAggregates();
  });

  it("a failure delivered after its invoice's payment: the plan stays ACTIVE, no email, the failure counts as recovered", async () => {
    const gift = await monthlyGift();
    const invoiceId = stripeId("in_1");
    expect(
      (await deliver(invoicePaidEvent(gift.subscriptionId, { billingReason: "subscription_cycle", amountPaid: 2000, invoiceId }))).status,
    ).toBe(200);
    expect((await deliver(invoiceFailedEvent(gift.subscriptionId, { invoiceId, amountDue: 2000 }))).status).toBe(200);
    expect((await planOf(gift.recurringPlanId)).status).toBe("ACTIVE");
    expect(await planEmails(gift.recurringPlanId)).toHaveLength(0);
    expect(await planEvents(gift.recurringPlanId)).toEqual(["recurring_plan.created"]);
    const [failure] = await (await testDb()).select().from(planInvoiceFailures).where(eq(planInvoiceFailures.invoiceId, invoiceId));
    expect(failure.recoveredAt).not.toBeNull();
    await expectExactAggregates();
  });

  it("the give-up delivered before the last failure: CANCELED stays, one gave-up email, no renewal-failed email after it", async () => {
    const gift = await monthlyGift();
    const { customerSubscriptionDeleted } = await import("@/lib/processor/event-factory");
    const ended = customerSubscriptionDeleted({ subscriptionId: gift.subscriptionId, cancellationReason: "payment_failed" });
    expect((await deliver(ended)).status).toBe(200);
    expect(
      (await deliver(invoiceFailedEvent(gift.subscriptionId, { invoiceId: stripeId("in_1"), amountDue: 2000, nextAttempt: null }))).status,
    ).toBe(200);
    const plan = await planOf(gift.recurringPlanId);
    expect(plan).toMatchObject({ status: "CANCELED", canceledBy: "processor" });
    expect((await planEmails(gift.recurringPlanId)).map((e) => e.props.kind)).toEqual(["gave-up"]);
    await expectExactAggregates();
  });

  it("an invoice of a subscription that isn't ours, or a first invoice's failure, is acknowledged and changes nothing", async () => {
    const gift = await monthlyGift();
    const foreign = await deliver(invoiceFailedEvent("sub_1NotOurs", { invoiceId: stripeId("in_1"), amountDue: 2000 }));
    expect(foreign.status).toBe(200);
    const create = invoiceFailedEvent(gift.subscriptionId, { invoiceId: stripeId("in_1"), amountDue: 2000 });
    (create.data.object as { billing_reason: string }).billing_reason = "subscription_create";
    expect((await deliver(create)).body).toMatchObject({ received: true });
    expect((await planOf(gift.recurringPlanId)).status).toBe("ACTIVE");
  });
});

describe("the card on file", () => {
  it("charge.succeeded keeps the plan's card and expiry; an older charge delivered late doesn't replace a newer card", async () => {
    const gift = await monthlyGift();
    const now = Math.floor(Date.now() / 1000);
    const newer = chargeSucceededEvent({
      paymentIntentId: gift.paymentIntentId,
      amount: 2000,
      card: { last4: "1111", expMonth: 5, expYear: 2031 },
      created: now + 120,
    });
    const older = chargeSucceededEvent({
      paymentIntentId: gift.paymentIntentId,
      amount: 2000,
      card: { last4: "0005", expMonth: 1, expYear: 2027 },
      created: now + 60,
    });
    expect((await deliver(newer)).status).toBe(200);
    expect((await deliver(older)).status).toBe(200);
    expect((await planView(gift.recurringPlanId)).card).toEqual({ brand: "visa", last4: "1111", expMonth: 5, expYear: 2031 });
  });
});

describe("unfinished-gift reminders (worker)", () => {
  /** Moves the donations' creation `minutes` back. */
  async function age(ids: string[], minutes: number) {
    await (
      await testDb()
    )
      .update(donations)
      .set({ createdAt: sql`now() - make_interval(mins => ${minutes})` })
      .where(inArray(donations.id, ids));
  }
  async function reminders(donationId: string) {
    return (await testDb())
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(eq(outbox.dedupeKey, `email:unfinished-gift:${donationId}`));
  }
  const runReminders = async () => remindUnfinishedGifts(await testDb(), { orgIds: [org.id] });

  it("asked: one reminder after ABANDONED_REMINDER_MINUTES, in the donor's language, reopening the same gift, with an unsubscribe link; never twice", async () => {
    const asked = await startDonation(campaign.id, { amount: 3100, remindIfUnfinished: true, locale: "fr" });
    expect(await runReminders()).toBe(0); // too early
    await age([asked.id], 61);
    expect(await runReminders()).toBe(1);
    expect(await runReminders()).toBe(0);
    const [row] = await reminders(asked.id);
    const mail = row.payload as unknown as EmailMessage<"unfinished-gift">;
    expect(mail.to).toBe(asked.email);
    expect(mail.props).toMatchObject({ locale: "fr", amountCents: 3100, interval: null });
    expect(mail.props.url).toBe(`http://localhost:3000/o/${org.slug}/donate/${campaign.slug}?amount=3100`);

    // The unsubscribe link's token stops later reminders to that address from the organization.
    const token = new URL(mail.props.unsubscribeUrl).searchParams.get("token")!;
    expect((await post("/api/public/reminders/unsubscribe", { token: `${token}x` })).status).toBe(404);
    expect((await post("/api/public/reminders/unsubscribe", { token })).body).toEqual({ unsubscribed: true });
    expect((await post("/api/public/reminders/unsubscribe", { token })).status).toBe(200);
    const again = await startDonation(campaign.id, { amount: 3100, remindIfUnfinished: true, email: asked.email });
    await age([again.id], 61);
    expect(await runReminders()).toBe(0);
  });

  it("not asked, paid meanwhile, or followed by another completed gift to the campaign: no reminder", async () => {
    const notAsked = await startDonation(campaign.id, { amount: 1700 });
    const paidMeanwhile = await paidDonation(campaign.id, { amount: 1800, remindIfUnfinished: true });
    const first = await startDonation(campaign.id, { amount: 1900, remindIfUnfinished: true });
    await paidDonation(campaign.id, { amount: 1900, email: first.email });
    const monthly = await startDonation(campaign.id, { amount: 2100, remindIfUnfinished: true, recurringInterval: "QUARTER" });
    await age([notAsked.id, paidMeanwhile.id, first.id, monthly.id], 90);
    expect(await runReminders()).toBe(1);
    for (const d of [notAsked, paidMeanwhile, first]) expect(await reminders(d.id)).toHaveLength(0);
    const [row] = await reminders(monthly.id);
    expect((row.payload as any).props.url).toBe(
      `http://localhost:3000/o/${org.slug}/donate/${campaign.slug}?amount=2100&frequency=QUARTER`,
    );
    const report = await get(`/api/orgs/${org.slug}/reports/recurring`, { token: owner.token });
    expect(report.body.abandonedReminded).toBeGreaterThanOrEqual(2);
  });
});

describe("expiring cards (worker)", () => {
  it("a card that expires before the next charge: one reminder within five weeks of that charge, with the account link; none for a card that lasts", async () => {
    const expiring = await monthlyGift();
    const lasting = await monthlyGift();
    const db = await testDb();
    const now = new Date();
    // Card good through this month; the next monthly charge is next month.
    const month = now.getUTCMonth() + 1;
    const year = now.getUTCFullYear();
    const chargedAt = Math.floor(Date.now() / 1000) + 600;
    await deliver(
      chargeSucceededEvent({
        paymentIntentId: expiring.paymentIntentId,
        amount: 2000,
        card: { last4: "0341", expMonth: month, expYear: year },
        created: chargedAt,
      }),
    );
    await deliver(
      chargeSucceededEvent({
        paymentIntentId: lasting.paymentIntentId,
        amount: 2000,
        card: { expMonth: month, expYear: year + 2 },
        created: chargedAt,
      }),
    );
    expect(await remindExpiringCards(db, { orgIds: [org.id] })).toBe(1);
    expect(await remindExpiringCards(db, { orgIds: [org.id] })).toBe(0);
    const emails = await planEmails(expiring.recurringPlanId);
    expect(emails).toHaveLength(1);
    expect(emails[0].props).toMatchObject({ kind: "card-expiring", locale: "es", card: { last4: "0341", expMonth: month, expYear: year } });
    expect(Date.parse(emails[0].props.nextChargeAt!)).toBeGreaterThan(Date.now());
    expect(await planEmails(lasting.recurringPlanId)).toHaveLength(0);
  });
});

describe("monthly upsell", () => {
  it("POST /api/donations records the upsell outcome; ACCEPTED must be a MONTH gift, DECLINED a one-time one; a campaign can turn it off", async () => {
    const accepted = await paidDonation(campaign.id, { amount: 1000, recurringInterval: "MONTH", upsell: "ACCEPTED" });
    expect(accepted.upsell).toBe("ACCEPTED");
    const declined = await startDonation(campaign.id, { amount: 5000, upsell: "DECLINED" });
    expect(declined.upsell).toBe("DECLINED");
    const bad = await post("/api/donations", { campaignId: campaign.id, amount: 5000, email: "u@example.org", upsell: "ACCEPTED" });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fieldErrors.upsell).toEqual(["An accepted monthly offer is a MONTH gift"]);
    const off = await activeCampaign(org, owner, { monthlyUpsell: false });
    expect(off.monthlyUpsell).toBe(false);
    const refused = await post("/api/donations", { campaignId: off.id, amount: 5000, email: "u@example.org", upsell: "DECLINED" });
    expect(refused.status).toBe(400);
    expect(refused.body.details.fieldErrors.upsell).toEqual(["This campaign does not offer a monthly gift"]);
    expect((await activeCampaign(org, owner)).monthlyUpsell).toBe(true);
  });

  it("GET /api/orgs/:idOrSlug/donations/export has the upsell outcome of each gift (OFFERED, ACCEPTED, DECLINED or empty)", async () => {
    const books = await activeOrg();
    const c = await activeCampaign(books.org, books.owner);
    const gifts = {
      ACCEPTED: await paidDonation(c.id, { amount: 1000, recurringInterval: "MONTH", upsell: "ACCEPTED" }),
      DECLINED: await paidDonation(c.id, { amount: 5000, upsell: "DECLINED" }),
      OFFERED: await startDonation(c.id, { amount: 4000, upsell: "OFFERED" }),
      "": await paidDonation(c.id, { amount: 3000 }),
    };
    const res = await get(`/api/orgs/${books.org.id}/donations/export`, { token: books.owner.token });
    expect(res.status, res.text).toBe(200);
    const rows = parse(res.text, { bom: true, columns: true, record_delimiter: "\r\n" }) as Record<string, string>[];
    expect(Object.keys(rows[0]).at(-1)).toBe("upsell");
    const byId = Object.fromEntries(rows.map((r) => [r.id, r.upsell]));
    for (const [upsell, gift] of Object.entries(gifts)) expect(byId[gift.id], upsell || "none").toBe(upsell);
  });

  it("monthlyUpsellCents suggests a smaller monthly gift from the campaign's amounts", () => {
    expect(monthlyUpsellCents(10_000, [2500, 5000, 10_000], 100)).toBe(5000);
    expect(monthlyUpsellCents(5000, [2500, 5000, 10_000], 100)).toBe(2500);
    expect(monthlyUpsellCents(3000, [2500, 5000], 100)).toBe(2500);
    expect(monthlyUpsellCents(2000, [2500, 5000], 100)).toBe(600);
    expect(monthlyUpsellCents(200, [2500], 100)).toBeNull();
  });
});

describe("GET /api/orgs/:idOrSlug/reports/recurring", () => {
  it("answers 401 without a token, 403 to a non-member, 404 for an unknown organization", async () => {
    expect((await get(`/api/orgs/${org.slug}/reports/recurring`)).status).toBe(401);
    expect((await get(`/api/orgs/${org.slug}/reports/recurring`, { token: (await outsider()).token })).status).toBe(403);
    expect((await get("/api/orgs/no-such-org-here/reports/recurring", { token: owner.token })).status).toBe(404);
  });

  it("counts plans now, recoveries and losses, upsell and reminders, exactly, for a member", async () => {
    const fresh = await activeOrg();
    const c = await activeCampaign(fresh.org, fresh.owner);
    const member = await memberOf(fresh.org, fresh.owner, "MEMBER");
    const active = await paidDonation(c.id, { amount: 2000, recurringInterval: "MONTH" });
    await paidDonation(c.id, { amount: 5200, recurringInterval: "WEEK" });
    const recovering = await paidDonation(c.id, { amount: 3000, recurringInterval: "QUARTER" });
    const lost = await paidDonation(c.id, { amount: 1500, recurringInterval: "MONTH" });
    await paidDonation(c.id, { amount: 1000, recurringInterval: "MONTH", upsell: "ACCEPTED" });
    await startDonation(c.id, { amount: 4000, upsell: "DECLINED" });
    const renew = (s: string) => post(`/api/sandbox/subscriptions/${s}/renew`, undefined, { token: fresh.owner.token });
    const decline = (s: string) => post(`/api/sandbox/subscriptions/${s}/fail-next-renewal`, undefined, { token: fresh.owner.token });
    await decline(active.subscriptionId);
    await renew(active.subscriptionId); // past due now
    await decline(recovering.subscriptionId);
    await renew(recovering.subscriptionId);
    const headers = {
      cookie: await donorSessionCookieFor(recovering.donorId, fresh.org.id),
      origin: APP_ORIGIN,
      "sec-fetch-site": "same-origin",
    };
    const setup = await post(`/api/donor/orgs/${fresh.org.slug}/recurring-plans/${recovering.recurringPlanId}/payment-method`, undefined, {
      headers,
    });
    await post("/api/sandbox/setup-intents/confirm", { clientSecret: setup.body.clientSecret, cardNumber: CARD_OK });
    await renew(recovering.subscriptionId); // recovered: 3000
    await decline(lost.subscriptionId);
    for (let i = 0; i < 4; i++) await renew(lost.subscriptionId); // lost: 1500
    const res = await get(`/api/orgs/${fresh.org.slug}/reports/recurring`, { token: member.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      from: null,
      to: null,
      currency: "usd",
      activePlans: 3,
      pastDuePlans: 1,
      // 5200 × 52 / 12 + 3000 / 3 + 1000 = 22533.3 + 1000 + 1000
      monthlyRecurringCents: 24533,
      recoveredCents: 3000,
      lostCents: 1500,
      upsellOffered: 2,
      upsellAccepted: 1,
      abandonedReminded: 0,
      abandonedRecovered: 0,
    });
    expect(await findViolations(await testDb(), [fresh.org.id])).toEqual([]);
    const past = await get(`/api/orgs/${fresh.org.slug}/reports/recurring?to=2000-01-01`, { token: member.token });
    expect(past.body).toMatchObject({ recoveredCents: 0, lostCents: 0, upsellOffered: 0, activePlans: 3 });
  });
});
