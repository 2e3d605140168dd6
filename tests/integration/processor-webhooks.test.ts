/**
 * POST /api/processor/webhooks against the donation status transitions and what follows from
 * them (aggregates, emails, outbound webhooks). Every event is a realistic Stripe
 * envelope from tests/fixtures/processor, signed by the real stripe SDK and delivered through the
 * real route handler; every test builds its own organization, campaign and donations through the
 * API (the Postgres run shares one database with other files), then reads the results back:
 * donation rows, campaign totals (GET /api/campaigns/:id), donor totals and the email outbox.
 */
import { randomBytes } from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { campaigns, donationEvents, donations, donors, outbox, payouts, processedEvents, recurringPlans } from "@/db/schema";
import {
  activeCampaign,
  activeOrg,
  chargeRefundedEvent,
  deliver,
  disputeEvent,
  fixture,
  givingSetup,
  invoicePaidEvent,
  onboardingOrg,
  paymentCanceledEvent,
  paymentFailedEvent,
  paymentSucceededEvent,
  pendingDonation,
  signedDelivery,
  stripeId,
  type CreatedDonation,
  type InvoiceShape,
  type OrgSetup,
} from "../fixtures/processor";
import { get, post } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";

const OK = { received: true };
const INVALID_SIGNATURE = { error: "Invalid signature", status: 400 };

// ---------------------------------------------------------------------------------------------
// Reading state back.

async function donationRow(id: string) {
  const db = await testDb();
  const [row] = await db.select().from(donations).where(eq(donations.id, id));
  return row;
}

async function donorRow(id: string) {
  const db = await testDb();
  const [row] = await db.select().from(donors).where(eq(donors.id, id));
  return row;
}

/** The campaign's live totals, as its members see them through the API. */
/**
 * A late event for the already settled donation `d` (its `status`) is acknowledged and changes nothing: not the
 * donation, the campaign's totals, the donor's, nor the emails queued.
 */
async function expectIgnored(
  s: OrgSetup & { campaign: { id: string } },
  d: CreatedDonation,
  status: string,
  event: Parameters<typeof deliver>[0],
) {
  const before = { campaign: await totals(s, s.campaign.id), donor: await donorRow(d.donorId), emails: await emailKeys(s.org.id) };
  const res = await deliver(event);
  expect(res.status).toBe(200);
  const row = await donationRow(d.id);
  expect(row.status).toBe(status);
  expect(row.failureReason).toBeNull();
  expect(await totals(s, s.campaign.id)).toEqual(before.campaign);
  expect(await donorRow(d.donorId)).toMatchObject({
    totalGivenCents: before.donor.totalGivenCents,
    donationCount: before.donor.donationCount,
  });
  expect(await emailKeys(s.org.id)).toEqual(before.emails);
  await expectInvariant(s.campaign.id);
}

async function totals(setup: OrgSetup, campaignId: string) {
  const res = await get(`/api/campaigns/${campaignId}`, { token: setup.owner.token });
  expect(res.status).toBe(200);
  const { raisedAmountCents, donationCount, matchedAmountCents, ticketsSold } = res.body;
  return { raisedAmountCents, donationCount, matchedAmountCents, ticketsSold } as Record<string, number>;
}

/** Emails queued for the organization, by dedupe key. */
async function emails(orgId: string) {
  const db = await testDb();
  const rows = await db
    .select({ dedupeKey: outbox.dedupeKey, payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.orgId, orgId), eq(outbox.kind, "email")));
  return new Map(rows.map((r) => [r.dedupeKey, r.payload as { template: string; to: string; props: Record<string, unknown> }]));
}

async function emailKeys(orgId: string) {
  return [...(await emails(orgId)).keys()].sort();
}

/** How many rows of `table` match `where`. */
async function countRows(table: typeof outbox | typeof donationEvents, where: SQL) {
  const db = await testDb();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(table)
    .where(where);
  return row.n;
}

const outboxCount = (orgId: string) => countRows(outbox, eq(outbox.orgId, orgId));

async function processed(eventId: string) {
  const db = await testDb();
  const rows = await db.select().from(processedEvents).where(eq(processedEvents.id, eventId));
  return rows.length;
}

const timelineCount = (donationId: string) => countRows(donationEvents, eq(donationEvents.donationId, donationId));

/**
 * The invariant: raised/count are the sum/count of the campaign's SUCCEEDED donations
 * (a peer-to-peer parent's include its pages'), matched is the sum of their matched amounts, and
 * each donor's totals are the sum/count of theirs.
 */
async function expectInvariant(campaignId: string) {
  const db = await testDb();
  const [c] = await db.select().from(campaigns).where(eq(campaigns.id, campaignId));
  const [own] = await db
    .select({
      sum: sql<number>`coalesce(sum(${donations.amount}), 0)::int`,
      n: sql<number>`count(*)::int`,
      matched: sql<number>`coalesce(sum(${donations.matchedAmountCents}), 0)::int`,
    })
    .from(donations)
    .where(and(eq(donations.campaignId, campaignId), eq(donations.status, "SUCCEEDED")));
  const [pages] = await db
    .select({ sum: sql<number>`coalesce(sum(${donations.amount}), 0)::int`, n: sql<number>`count(*)::int` })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(and(eq(campaigns.parentCampaignId, campaignId), eq(donations.status, "SUCCEEDED")));
  expect({ raised: c.raisedAmountCents, count: c.donationCount, matched: c.matchedAmountCents }).toEqual({
    raised: own.sum + pages.sum,
    count: own.n + pages.n,
    matched: own.matched,
  });
  const donorTotals = await db.execute<{ id: string; total: number; n: number; expected_total: number; expected_n: number }>(sql`
    select d.id, d.total_given_cents::int as total, d.donation_count as n,
           coalesce((select sum(x.amount) from donations x where x.donor_id = d.id and x.status = 'SUCCEEDED'), 0)::int as expected_total,
           (select count(*) from donations x where x.donor_id = d.id and x.status = 'SUCCEEDED')::int as expected_n
    from donors d where d.id in (select donor_id from donations where campaign_id = ${campaignId})`);
  const list = Array.isArray(donorTotals) ? donorTotals : (donorTotals as unknown as { rows: typeof donorTotals }).rows;
  for (const d of list as unknown as Array<{ total: number; n: number; expected_total: number; expected_n: number }>) {
    expect({ total: d.total, n: d.n }).toEqual({ total: d.expected_total, n: d.expected_n });
  }
}

// ---------------------------------------------------------------------------------------------
// Driving donations through events.

/** Delivers payment_intent.succeeded for `d` and returns the charge ID it carried. */
async function succeed(d: CreatedDonation): Promise<string> {
  const chargeId = stripeId("ch_3");
  const res = await deliver(paymentSucceededEvent(d, { chargeId }));
  expect(res.status).toBe(200);
  expect(res.body).toEqual(OK);
  return chargeId;
}

async function refund(d: CreatedDonation, chargeId: string, refunded?: number) {
  const res = await deliver(chargeRefundedEvent({ chargeId, paymentIntentId: d.paymentIntentId, amount: d.amount + d.feeCents, refunded }));
  expect(res.status).toBe(200);
  expect(res.body).toEqual(OK);
}

async function dispute(d: CreatedDonation, chargeId: string, disputeId = stripeId("du_1")) {
  const res = await deliver(
    disputeEvent("charge.dispute.created", { disputeId, chargeId, paymentIntentId: d.paymentIntentId, amount: d.amount }),
  );
  expect(res.status).toBe(200);
  return disputeId;
}

async function closeDispute(d: CreatedDonation, chargeId: string, disputeId: string, status: "won" | "lost") {
  const res = await deliver(
    disputeEvent("charge.dispute.closed", { disputeId, chargeId, paymentIntentId: d.paymentIntentId, amount: d.amount, status }),
  );
  expect(res.status).toBe(200);
  expect(res.body).toEqual(OK);
}

// ---------------------------------------------------------------------------------------------

describe("POST /api/processor/webhooks: payment_intent.succeeded", () => {
  it("moves a one-time PENDING donation to SUCCEEDED with aggregates, donor totals, receipt and admin emails", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 5000 });
    expect(d.status).toBe("PENDING");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });

    const event = paymentSucceededEvent(d);
    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);

    const row = await donationRow(d.id);
    expect(row.status).toBe("SUCCEEDED");
    expect(row.succeededAt).toBeInstanceOf(Date);
    expect(row.chargeId).toBe(event.data.object.latest_charge);
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 5000, donationCount: 1 });
    const donor = await donorRow(d.donorId);
    expect(donor).toMatchObject({ totalGivenCents: 5000, donationCount: 1 });
    expect(donor.firstDonationAt).toBeInstanceOf(Date);
    expect(donor.lastDonationAt).toBeInstanceOf(Date);

    const queued = await emails(s.org.id);
    expect([...queued.keys()].sort()).toEqual([`email:admin:${d.id}`, `email:receipt:${d.id}`]);
    const receipt = queued.get(`email:receipt:${d.id}`)!;
    expect(receipt).toMatchObject({ template: "receipt", to: d.email });
    expect(receipt.props).toMatchObject({
      donationId: d.id,
      amountCents: 5000,
      currency: "usd",
      campaignTitle: s.campaign.title,
      orgLegalName: "Test Org Foundation",
      orgTaxId: "12-3456789",
      donorFirstName: "Dana",
    });
    const admin = queued.get(`email:admin:${d.id}`)!;
    expect(admin).toMatchObject({ template: "admin-notification", to: s.org.notificationEmail });
    expect(admin.props).toMatchObject({ donationId: d.id, amountCents: 5000 });
    await expectInvariant(s.campaign.id);
  });

  it("a gift with fees covered: the receipt and the staff alert both say what the donor was charged", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 2500, coverFees: true });
    await succeed(d);
    const row = await donationRow(d.id);
    expect(row.feeCents).toBeGreaterThan(0);
    const queued = await emails(s.org.id);
    const charged = 2500 + row.feeCents;
    expect(queued.get(`email:receipt:${d.id}`)!.props).toMatchObject({ amountCents: charged });
    expect(queued.get(`email:admin:${d.id}`)!.props).toMatchObject({ amountCents: charged, feeCents: row.feeCents });
    await expectInvariant(s.campaign.id);
  });

  it("queues a tribute email when the dedication has notifyEmail, and none without", async () => {
    const s = await givingSetup();
    const withNotify = await pendingDonation(s.campaign.id, {
      dedication: { type: "IN_MEMORY", honoreeName: "Grandma Rose", notifyEmail: "family@example.org", message: "With love" },
    });
    const without = await pendingDonation(s.campaign.id, { dedication: { type: "IN_HONOR", honoreeName: "Coach Lee" } });
    await succeed(withNotify);
    await succeed(without);

    const queued = await emails(s.org.id);
    const tribute = queued.get(`email:tribute:${withNotify.id}`)!;
    expect(tribute).toMatchObject({ template: "tribute", to: "family@example.org" });
    expect(tribute.props).toMatchObject({ honoreeName: "Grandma Rose", type: "IN_MEMORY", message: "With love" });
    expect(queued.has(`email:tribute:${without.id}`)).toBe(false);
    expect(queued.has(`email:receipt:${without.id}`)).toBe(true);
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 10000, donationCount: 2 });
  });

  it("alerts each 25/50/75/100 % milestone once per campaign, even when crossed again after a refund", async () => {
    const s = await givingSetup({ goalAmountCents: 10000 });
    const milestoneKeys = async () => (await emailKeys(s.org.id)).filter((k) => k.startsWith("email:milestone:"));
    const key = (pct: number) => `email:milestone:${s.campaign.id}:${pct}`;

    const first = await pendingDonation(s.campaign.id, { amount: 2400 });
    await succeed(first);
    expect(await milestoneKeys()).toEqual([]); // 24 %

    const second = await pendingDonation(s.campaign.id, { amount: 100 });
    await succeed(second);
    expect(await milestoneKeys()).toEqual([key(25)]); // exactly 25 %
    const alert = (await emails(s.org.id)).get(key(25))!;
    expect(alert).toMatchObject({ template: "milestone", to: s.org.notificationEmail });
    expect(alert.props).toMatchObject({ thresholdPct: 25, raisedAmountCents: 2500, goalAmountCents: 10000 });

    const third = await pendingDonation(s.campaign.id, { amount: 3000 });
    await succeed(third);
    expect(await milestoneKeys()).toEqual([key(25), key(50)]); // 55 %

    const big = await pendingDonation(s.campaign.id, { amount: 5000 });
    const bigCharge = await succeed(big);
    expect(await milestoneKeys()).toEqual([key(100), key(25), key(50), key(75)].sort()); // 105 %: both crossed at once

    await refund(big, bigCharge);
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 5500, donationCount: 3 });
    const again = await pendingDonation(s.campaign.id, { amount: 5000 });
    await succeed(again);
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 10500, donationCount: 4 });
    expect(await milestoneKeys()).toEqual([key(100), key(25), key(50), key(75)].sort());
    const db = await testDb();
    const milestoneRows = await db
      .select()
      .from(outbox)
      .where(sql`${outbox.dedupeKey} like ${`email:milestone:${s.campaign.id}:%`}`);
    expect(milestoneRows).toHaveLength(4);
    await expectInvariant(s.campaign.id);
  });

  it("moves a FAILED donation to SUCCEEDED and counts it then", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 3000 });
    await deliver(paymentFailedEvent(d));
    expect((await donationRow(d.id)).status).toBe("FAILED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });

    await succeed(d);
    expect((await donationRow(d.id)).status).toBe("SUCCEEDED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 3000, donationCount: 1 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 3000, donationCount: 1 });
    expect(await emailKeys(s.org.id)).toEqual([`email:admin:${d.id}`, `email:receipt:${d.id}`]);
  });

  it("treats a late success for a REFUNDED donation as stale: it stays REFUNDED and does not count again", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 4000 });
    const chargeId = await succeed(d);
    await refund(d, chargeId);
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });

    await succeed(d);
    expect((await donationRow(d.id)).status).toBe("REFUNDED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    await expectInvariant(s.campaign.id);
  });

  it("skips a donation linked to a subscription: unchanged, no aggregates, no emails", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 2500, recurringInterval: "MONTH" });
    expect(d.subscriptionId).toMatch(/^sub_/);

    const res = await deliver(paymentSucceededEvent(d, { metadata: {}, overrides: { data: { object: { invoice: stripeId("in_1") } } } }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);
    expect((await donationRow(d.id)).status).toBe("PENDING");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 0, donationCount: 0 });
    expect(await emailKeys(s.org.id)).toEqual([]);
  });

  it("never counts a recurring gift twice when the invoice's own payment_intent.succeeded follows invoice.payment_succeeded", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 2500, recurringInterval: "MONTH" });
    await deliver(
      invoicePaidEvent(d.subscriptionId!, { billingReason: "subscription_create", amountPaid: 2500, paymentIntentId: d.paymentIntentId! }),
    );
    await deliver(paymentSucceededEvent(d, { metadata: {} }));
    expect((await donationRow(d.id)).status).toBe("SUCCEEDED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 2500, donationCount: 1 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 2500, donationCount: 1 });
  });
});

describe("POST /api/processor/webhooks: payment_intent.payment_failed", () => {
  it("moves a PENDING donation to FAILED with the processor's failure reason, and counts nothing", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id);
    const res = await deliver(paymentFailedEvent(d));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);

    const row = await donationRow(d.id);
    expect(row.status).toBe("FAILED");
    expect(row.failureReason).toBe("Your card has insufficient funds.");
    expect(row.succeededAt).toBeNull();
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 0, donationCount: 0 });
    expect(await emailKeys(s.org.id)).toEqual([]);
  });

  const settle: Record<string, (d: CreatedDonation) => Promise<void>> = {
    SUCCEEDED: async (d) => void (await succeed(d)),
    DISPUTED: async (d) => void (await dispute(d, await succeed(d))),
    REFUNDED: async (d) => refund(d, await succeed(d)),
  };

  it.each(Object.keys(settle))("leaves an already %s donation unchanged (a late, stale failure)", async (status) => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id);
    await settle[status](d);
    expect((await donationRow(d.id)).status).toBe(status);
    await expectIgnored(s, d, status, paymentFailedEvent(d, { message: "Your card was declined." }));
  });
});

describe("POST /api/processor/webhooks: invoice.payment_succeeded", () => {
  it.each<InvoiceShape>(["current", "legacy"])(
    "subscription_create (%s invoice shape) moves the initial recurring donation to SUCCEEDED and records the subscription",
    async (shape) => {
      const s = await givingSetup();
      const d = await pendingDonation(s.campaign.id, { amount: 2500, recurringInterval: "MONTH" });
      const chargeId = stripeId("ch_3");
      const event = invoicePaidEvent(d.subscriptionId!, {
        billingReason: "subscription_create",
        amountPaid: 2500,
        shape,
        paymentIntentId: d.paymentIntentId!,
        chargeId,
      });
      if (shape === "legacy") {
        expect(event.data.object).toHaveProperty("subscription", d.subscriptionId);
        expect(event.data.object).not.toHaveProperty("parent");
      } else {
        expect(event.data.object.parent?.subscription_details?.subscription).toBe(d.subscriptionId);
        expect(event.data.object).not.toHaveProperty("subscription");
      }
      const res = await deliver(event);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(OK);

      const row = await donationRow(d.id);
      expect(row).toMatchObject({
        status: "SUCCEEDED",
        subscriptionId: d.subscriptionId,
        invoiceId: event.data.object.id,
        chargeId,
        isRenewal: false,
      });
      expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 2500, donationCount: 1 });
      expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 2500, donationCount: 1 });
      const queued = await emails(s.org.id);
      expect([...queued.keys()].sort()).toEqual([`email:admin:${d.id}`, `email:receipt:${d.id}`]);
      expect(queued.get(`email:receipt:${d.id}`)!.props).toMatchObject({
        recurring: { interval: "MONTH", amountCents: 2500 },
        isRenewal: false,
      });
      const db = await testDb();
      const [plan] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, d.recurringPlanId!));
      expect(plan).toMatchObject({ status: "ACTIVE", subscriptionId: d.subscriptionId });
    },
  );

  it.each<InvoiceShape>(["current", "legacy"])(
    "subscription_cycle (%s invoice shape) creates one SUCCEEDED renewal per invoice, with aggregates and a receipt",
    async (shape) => {
      const s = await givingSetup();
      const d = await pendingDonation(s.campaign.id, { amount: 2500, recurringInterval: "MONTH" });
      await deliver(
        invoicePaidEvent(d.subscriptionId!, {
          billingReason: "subscription_create",
          amountPaid: 2500,
          shape,
          paymentIntentId: d.paymentIntentId!,
        }),
      );

      const invoiceId = stripeId("in_1");
      const paymentIntentId = stripeId("pi_3");
      const cycle = invoicePaidEvent(d.subscriptionId!, {
        billingReason: "subscription_cycle",
        amountPaid: 2500,
        shape,
        invoiceId,
        paymentIntentId,
      });
      const res = await deliver(cycle);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(OK);

      const db = await testDb();
      const renewals = () =>
        db
          .select()
          .from(donations)
          .where(and(eq(donations.subscriptionId, d.subscriptionId!), eq(donations.isRenewal, true)));
      const [renewal, ...more] = await renewals();
      expect(more).toEqual([]);
      expect(renewal).toMatchObject({
        status: "SUCCEEDED",
        isRenewal: true,
        donorId: d.donorId,
        campaignId: d.campaignId,
        orgId: d.orgId,
        amount: 2500,
        invoiceId,
        paymentIntentId,
        recurringPlanId: d.recurringPlanId,
      });
      expect(renewal.id).not.toBe(d.id);
      expect(renewal.succeededAt).toBeInstanceOf(Date);
      expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 5000, donationCount: 2 });
      expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 5000, donationCount: 2 });
      const queued = await emails(s.org.id);
      expect(queued.get(`email:receipt:${renewal.id}`)).toMatchObject({
        template: "receipt",
        to: d.email,
        props: { donationId: renewal.id, isRenewal: true },
      });

      // The same invoice again under a different event ID: still exactly one renewal.
      const again = invoicePaidEvent(d.subscriptionId!, {
        billingReason: "subscription_cycle",
        amountPaid: 2500,
        shape,
        invoiceId,
        paymentIntentId,
      });
      expect(again.id).not.toBe(cycle.id);
      const res2 = await deliver(again);
      expect(res2.status).toBe(200);
      expect(await renewals()).toHaveLength(1);
      expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 5000, donationCount: 2 });
      expect(await emailKeys(s.org.id)).toEqual([...queued.keys()].sort());
      await expectInvariant(s.campaign.id);
    },
  );
});

describe("POST /api/processor/webhooks: concurrent renewals on one campaign", () => {
  // Each renewal inserts its donation (the foreign key takes KEY SHARE on the campaign row) and
  // then moves it, which locks that row. A SELECT … FOR UPDATE conflicts with KEY SHARE, so two
  // renewals in between would wait for each other (40P01, a 500 to the processor); the lock that
  // an UPDATE takes (FOR NO KEY UPDATE) does not. On PGlite (one connection) this runs in series.
  it("all apply, none deadlocks, and the totals add up", async () => {
    const s = await givingSetup();
    const plans: CreatedDonation[] = [];
    for (let i = 0; i < 12; i++) {
      const d = await pendingDonation(s.campaign.id, { amount: 2500, recurringInterval: "MONTH" });
      await deliver(
        invoicePaidEvent(d.subscriptionId!, {
          billingReason: "subscription_create",
          amountPaid: 2500,
          paymentIntentId: d.paymentIntentId!,
        }),
      );
      plans.push(d);
    }
    const results = await Promise.all(
      plans.flatMap((d) =>
        [0, 1].map(() => deliver(invoicePaidEvent(d.subscriptionId!, { billingReason: "subscription_cycle", amountPaid: 2500 }))),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 12 * 3 * 2500, donationCount: 36 });
    await expectInvariant(s.campaign.id);
  });
});

describe("POST /api/processor/webhooks: invoice.payment_succeeded without `payments`", () => {
  // Stripe leaves the includable `payments` out of current-shape webhook payloads by default.
  it("still records the first payment and one renewal per invoice", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 2500, recurringInterval: "MONTH" });
    const bare = { data: { object: { payments: undefined } } };
    const create = invoicePaidEvent(d.subscriptionId!, { billingReason: "subscription_create", amountPaid: 2500, overrides: bare });
    expect(create.data.object).not.toHaveProperty("payments");
    expect((await deliver(create)).body).toEqual(OK);
    expect(await donationRow(d.id)).toMatchObject({
      status: "SUCCEEDED",
      paymentIntentId: d.paymentIntentId,
      invoiceId: create.data.object.id,
    });

    for (let i = 0; i < 2; i++) {
      const res = await deliver(
        invoicePaidEvent(d.subscriptionId!, { billingReason: "subscription_cycle", amountPaid: 2500, overrides: bare }),
      );
      expect(res.body).toEqual(OK);
    }
    const db = await testDb();
    const renewals = await db
      .select()
      .from(donations)
      .where(and(eq(donations.subscriptionId, d.subscriptionId!), eq(donations.isRenewal, true)));
    expect(renewals.map((r) => r.status)).toEqual(["SUCCEEDED", "SUCCEEDED"]);
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 7500, donationCount: 3 });
    await expectInvariant(s.campaign.id);
  });
});

describe("POST /api/processor/webhooks: charge.dispute.created", () => {
  it("moves the donation to DISPUTED, drops the aggregates and alerts the organization with amount, reason and deadline", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 5000 });
    const chargeId = await succeed(d);
    const disputeId = stripeId("du_1");
    const dueBy = Math.floor(Date.now() / 1000) + 7 * 86400;
    const res = await deliver(
      disputeEvent("charge.dispute.created", {
        disputeId,
        chargeId,
        paymentIntentId: d.paymentIntentId,
        amount: 5000,
        reason: "fraudulent",
        dueBy,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);

    expect(await donationRow(d.id)).toMatchObject({ status: "DISPUTED", disputeReason: "fraudulent" });
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 0, donationCount: 0 });
    const alert = (await emails(s.org.id)).get(`email:dispute:${disputeId}`)!;
    expect(alert).toMatchObject({ template: "dispute-alert", to: s.org.notificationEmail });
    expect(alert.props).toMatchObject({
      donationId: d.id,
      amountCents: 5000,
      currency: "usd",
      reason: "fraudulent",
      responseDeadline: new Date(dueBy * 1000).toISOString(),
    });
    await expectInvariant(s.campaign.id);
  });

  it("finds the donation by its charge when the dispute's payment_intent is null", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 4200 });
    const chargeId = await succeed(d);
    expect((await donationRow(d.id)).chargeId).toBe(chargeId);
    const disputeId = stripeId("du_1");
    const res = await deliver(
      disputeEvent("charge.dispute.created", { disputeId, chargeId, paymentIntentId: null, amount: 4200, reason: "product_not_received" }),
    );
    expect(res.status).toBe(200);
    expect(await donationRow(d.id)).toMatchObject({ status: "DISPUTED", disputeReason: "product_not_received" });
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(await emailKeys(s.org.id)).toContain(`email:dispute:${disputeId}`);
  });
});

describe("POST /api/processor/webhooks: charge.dispute.closed", () => {
  it("won: DISPUTED → SUCCEEDED, aggregates restored, no second receipt", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 5000 });
    const chargeId = await succeed(d);
    const disputeId = await dispute(d, chargeId);
    const before = await emailKeys(s.org.id);

    await closeDispute(d, chargeId, disputeId, "won");
    expect((await donationRow(d.id)).status).toBe("SUCCEEDED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 5000, donationCount: 1 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 5000, donationCount: 1 });
    expect(await emailKeys(s.org.id)).toEqual(before);
    expect(before.filter((k) => k === `email:receipt:${d.id}`)).toHaveLength(1);
    await expectInvariant(s.campaign.id);
  });

  it("lost: DISPUTED → REFUNDED, aggregates stay down", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 5000 });
    const chargeId = await succeed(d);
    const disputeId = await dispute(d, chargeId);
    await closeDispute(d, chargeId, disputeId, "lost");
    expect((await donationRow(d.id)).status).toBe("REFUNDED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 0, donationCount: 0 });
    await expectInvariant(s.campaign.id);
  });

  it("leaves a donation that is not DISPUTED unchanged (SUCCEEDED + lost, PENDING + won)", async () => {
    const s = await givingSetup();
    const settled = await pendingDonation(s.campaign.id, { amount: 5000 });
    const chargeId = await succeed(settled);
    await closeDispute(settled, chargeId, stripeId("du_1"), "lost");
    expect((await donationRow(settled.id)).status).toBe("SUCCEEDED");

    const pending = await pendingDonation(s.campaign.id, { amount: 3000 });
    await closeDispute(pending, stripeId("ch_3"), stripeId("du_1"), "won");
    expect((await donationRow(pending.id)).status).toBe("PENDING");

    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 5000, donationCount: 1 });
    expect(await emailKeys(s.org.id)).toEqual([`email:admin:${settled.id}`, `email:receipt:${settled.id}`]);
    await expectInvariant(s.campaign.id);
  });
});

describe("POST /api/processor/webhooks: account.updated", () => {
  it("moves the organization ONBOARDING → ACTIVE when charges and payouts are enabled", async () => {
    const s = await onboardingOrg();
    expect((await get(`/api/orgs/${s.org.id}`, { token: s.owner.token })).body.status).toBe("ONBOARDING");
    const res = await deliver(
      fixture("account.updated", {
        account: s.accountId,
        data: { object: { id: s.accountId, charges_enabled: true, payouts_enabled: true } },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);
    expect((await get(`/api/orgs/${s.org.id}`, { token: s.owner.token })).body).toMatchObject({
      status: "ACTIVE",
      chargesEnabled: true,
      payoutsEnabled: true,
    });
  });

  it.each([
    { charges: true, payouts: false },
    { charges: false, payouts: true },
  ])("keeps the organization ONBOARDING with charges $charges and payouts $payouts", async ({ charges, payouts: payoutsOn }) => {
    const s = await onboardingOrg();
    const res = await deliver(
      fixture("account.updated", {
        account: s.accountId,
        data: {
          object: {
            id: s.accountId,
            charges_enabled: charges,
            payouts_enabled: payoutsOn,
            requirements: { currently_due: ["external_account"] },
          },
        },
      }),
    );
    expect(res.status).toBe(200);
    expect((await get(`/api/orgs/${s.org.id}`, { token: s.owner.token })).body).toMatchObject({
      status: "ONBOARDING",
      chargesEnabled: charges,
      payoutsEnabled: payoutsOn,
    });
  });
});

describe("POST /api/processor/webhooks: charge.refunded", () => {
  it("full refund: SUCCEEDED → REFUNDED, aggregates and donor totals drop", async () => {
    const s = await givingSetup();
    const kept = await pendingDonation(s.campaign.id, { amount: 2000 });
    await succeed(kept);
    const d = await pendingDonation(s.campaign.id, { amount: 5000, email: kept.email });
    const chargeId = await succeed(d);
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 7000, donationCount: 2 });

    await refund(d, chargeId);
    expect((await donationRow(d.id)).status).toBe("REFUNDED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 2000, donationCount: 1 });
    const donor = await donorRow(d.donorId);
    expect(donor).toMatchObject({ totalGivenCents: 2000, donationCount: 1 });
    expect(donor.lastDonationAt).toEqual((await donationRow(kept.id)).succeededAt);
    await expectInvariant(s.campaign.id);
  });

  it("partial refund: the donation stays SUCCEEDED and keeps counting in full", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 5000 });
    const chargeId = await succeed(d);
    await refund(d, chargeId, 1000);
    expect((await donationRow(d.id)).status).toBe("SUCCEEDED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 5000, donationCount: 1 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 5000, donationCount: 1 });
  });
});

describe("POST /api/processor/webhooks: payouts and subscriptions", () => {
  it("payout.paid and payout.failed from a connected account record the organization's payouts", async () => {
    const s = await activeOrg();
    const paidId = stripeId("po_1");
    const failedId = stripeId("po_1");
    const paid = fixture("payout.paid", { account: s.accountId, data: { object: { id: paidId } } });
    const failed = fixture("payout.failed", { account: s.accountId, data: { object: { id: failedId } } });
    expect((await deliver(paid)).body).toEqual(OK);
    expect((await deliver(failed)).body).toEqual(OK);

    const db = await testDb();
    const rows = await db.select().from(payouts).where(eq(payouts.orgId, s.org.id));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(rows).toHaveLength(2);
    expect(byId.get(paidId)).toMatchObject({ amount: 48250, currency: "usd", status: "paid", failureMessage: null });
    expect(byId.get(paidId)!.arrivalDate).toEqual(new Date(paid.data.object.arrival_date * 1000));
    expect(byId.get(failedId)).toMatchObject({ amount: 12000, status: "failed", failureMessage: "The bank account has been closed." });
  });

  it("customer.subscription.deleted cancels the recurring plan", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { amount: 2500, recurringInterval: "YEAR" });
    await deliver(
      invoicePaidEvent(d.subscriptionId!, { billingReason: "subscription_create", amountPaid: 2500, paymentIntentId: d.paymentIntentId! }),
    );
    const res = await deliver(
      fixture("customer.subscription.deleted", { data: { object: { id: d.subscriptionId, metadata: { donationId: d.id } } } }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);
    const db = await testDb();
    const [plan] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, d.recurringPlanId!));
    expect(plan.status).toBe("CANCELED");
    expect(plan.canceledAt).toBeInstanceOf(Date);
    // The gift already made keeps counting.
    expect((await donationRow(d.id)).status).toBe("SUCCEEDED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 2500, donationCount: 1 });
  });
});

describe("POST /api/processor/webhooks: payment_intent.canceled", () => {
  it("moves a PENDING EVENT donation to FAILED with the cancellation reason and releases its tickets", async () => {
    const s = await givingSetup({ type: "EVENT", ticketPriceCents: 2000, ticketCapacity: 10 });
    const d = await pendingDonation(s.campaign.id, { amount: 6000, tickets: 3 });
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 3 });

    const event = paymentCanceledEvent(d);
    const res = await deliver(event);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);
    const row = await donationRow(d.id);
    expect(row).toMatchObject({ status: "FAILED", failureReason: "Payment canceled: abandoned", succeededAt: null });
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 0, raisedAmountCents: 0, donationCount: 0 });
    expect(await emailKeys(s.org.id)).toEqual([]);

    // Redelivered: acknowledged as a duplicate, nothing changes.
    const again = await deliver(event);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 0 });
    expect(await processed(event.id)).toBe(1);
    await expectInvariant(s.campaign.id);
  });

  it("a cancel without a reason says so plainly; a second cancel event keeps the first reason", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id);
    await deliver(paymentCanceledEvent(d, { reason: null }));
    expect(await donationRow(d.id)).toMatchObject({ status: "FAILED", failureReason: "Payment canceled" });
    await deliver(paymentCanceledEvent(d, { reason: "requested_by_customer" }));
    expect(await donationRow(d.id)).toMatchObject({ status: "FAILED", failureReason: "Payment canceled" });
  });

  const settle: Record<string, (d: CreatedDonation) => Promise<void>> = {
    SUCCEEDED: async (d) => void (await succeed(d)),
    DISPUTED: async (d) => void (await dispute(d, await succeed(d))),
    REFUNDED: async (d) => refund(d, await succeed(d)),
  };

  it.each(Object.keys(settle))("a stale cancel leaves an already %s EVENT donation and its tickets unchanged", async (status) => {
    const s = await givingSetup({ type: "EVENT", ticketPriceCents: 2000, ticketCapacity: 10 });
    const d = await pendingDonation(s.campaign.id, { amount: 4000, tickets: 2 });
    await settle[status](d);
    await expectIgnored(s, d, status, paymentCanceledEvent(d));
  });

  it("ignores the canceled intent of a subscription's payment (the subscription's events decide the gift)", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id, { recurringInterval: "MONTH" });
    const res = await deliver(paymentCanceledEvent(d, { metadata: {} }));
    expect(res.status).toBe(200);
    expect((await donationRow(d.id)).status).toBe("PENDING");
  });
});

describe("POST /api/processor/webhooks: tickets, matching, peer-to-peer", () => {
  it("a declined EVENT donation keeps its tickets while its PaymentIntent can still be paid; paid with another card, no seat is sold twice", async () => {
    const s = await givingSetup({ type: "EVENT", ticketPriceCents: 2000, ticketCapacity: 2 });
    const a = await pendingDonation(s.campaign.id, { amount: 4000, tickets: 2 });
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 2 });

    // A's card is declined: Stripe leaves the PaymentIntent requires_payment_method.
    const failed = paymentFailedEvent(a, { message: "Your card was declined." });
    expect(failed.data.object.status).toBe("requires_payment_method");
    expect((await deliver(failed)).body).toEqual(OK);
    const seen = await get(`/api/donations/${a.id}`, { token: s.owner.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ status: "PENDING", failureReason: "Your card was declined.", succeededAt: null });
    expect(seen.body.timeline.map((e: { type: string }) => e.type)).toContain("payment_intent.payment_failed");
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 2, raisedAmountCents: 0, donationCount: 0 });

    // B can't buy A's seats while A may still pay.
    const b = await post("/api/donations", { campaignId: s.campaign.id, amount: 2000, tickets: 1, email: "b@example.org" });
    expect(b.body).toEqual({ error: "Sold out", status: 409 });

    // A pays with another card.
    await succeed(a);
    expect(await donationRow(a.id)).toMatchObject({ status: "SUCCEEDED", failureReason: null });
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 2, raisedAmountCents: 4000, donationCount: 1 });
    expect(await emailKeys(s.org.id)).toEqual([`email:admin:${a.id}`, `email:receipt:${a.id}`].sort());
    expect((await post("/api/donations", { campaignId: s.campaign.id, amount: 2000, tickets: 1, email: "b@example.org" })).status).toBe(
      409,
    );
    await expectInvariant(s.campaign.id);
    expect(await findViolations(await testDb(), [s.org.id])).toEqual([]);
  });

  it("a declined EVENT donation frees its tickets once its PaymentIntent is canceled; then they sell again", async () => {
    const s = await givingSetup({ type: "EVENT", ticketPriceCents: 2000, ticketCapacity: 2 });
    const a = await pendingDonation(s.campaign.id, { amount: 4000, tickets: 2 });
    await deliver(paymentFailedEvent(a));
    await deliver(paymentFailedEvent(a, { message: "Your card was declined." }));
    expect(await donationRow(a.id)).toMatchObject({ status: "PENDING", failureReason: "Your card was declined." });
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 2 });

    await deliver(paymentCanceledEvent(a));
    expect(await donationRow(a.id)).toMatchObject({ status: "FAILED", failureReason: "Payment canceled: abandoned" });
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 0 });
    // A failure arriving late for the canceled payment changes nothing.
    await deliver(paymentFailedEvent(a));
    expect(await donationRow(a.id)).toMatchObject({ status: "FAILED", failureReason: "Payment canceled: abandoned" });

    const b = await pendingDonation(s.campaign.id, { amount: 4000, tickets: 2 });
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 2 });
    await succeed(b);
    expect(await totals(s, s.campaign.id)).toMatchObject({ ticketsSold: 2, raisedAmountCents: 4000, donationCount: 1 });
    expect(await findViolations(await testDb(), [s.org.id])).toEqual([]);
  });

  it("a declined donation without tickets is FAILED at once", async () => {
    const s = await givingSetup();
    const plain = await pendingDonation(s.campaign.id, { amount: 2500 });
    expect(plain.tickets).toBeNull();
    await deliver(paymentFailedEvent(plain));
    expect(await donationRow(plain.id)).toMatchObject({ status: "FAILED", failureReason: "Your card has insufficient funds." });
  });

  it("matches 2:1 up to matchingMaxCents, keeps raised free of matching, and frees the match on refund", async () => {
    const s = await givingSetup({
      matchingEnabled: true,
      matchingRatioPct: 200,
      matchingMaxCents: 5000,
      matchingOrgName: "Acme Foundation",
    });
    const gifts: Array<{ d: CreatedDonation; chargeId: string }> = [];
    const expected = [2000, 2000, 1000, 0];
    for (const want of expected) {
      const d = await pendingDonation(s.campaign.id, { amount: 1000 });
      gifts.push({ d, chargeId: await succeed(d) });
      expect((await donationRow(d.id)).matchedAmountCents).toBe(want);
      const t = await totals(s, s.campaign.id);
      expect(t.matchedAmountCents).toBeLessThanOrEqual(5000);
      await expectInvariant(s.campaign.id);
    }
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 4000, donationCount: 4, matchedAmountCents: 5000 });

    await refund(gifts[0].d, gifts[0].chargeId);
    expect((await donationRow(gifts[0].d.id)).matchedAmountCents).toBe(0);
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 3000, donationCount: 3, matchedAmountCents: 3000 });

    const next = await pendingDonation(s.campaign.id, { amount: 1000 });
    await succeed(next);
    expect((await donationRow(next.id)).matchedAmountCents).toBe(2000);
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 4000, donationCount: 4, matchedAmountCents: 5000 });
    await expectInvariant(s.campaign.id);
  });

  it("a gift to a fundraiser page raises both the page and its parent campaign", async () => {
    const s = await activeOrg();
    const parent = await activeCampaign(s, { title: "Run for water", type: "PEER_TO_PEER", goalAmountCents: 100000 });
    const page = await activeCampaign(s, { title: "Sam runs for water", type: "PEER_TO_PEER", parentCampaignId: parent.id });
    const toPage = await pendingDonation(page.id, { amount: 5000 });
    const toParent = await pendingDonation(parent.id, { amount: 2000 });
    const pageCharge = await succeed(toPage);
    await succeed(toParent);

    expect(await totals(s, page.id)).toMatchObject({ raisedAmountCents: 5000, donationCount: 1 });
    expect(await totals(s, parent.id)).toMatchObject({ raisedAmountCents: 7000, donationCount: 2 });
    await expectInvariant(parent.id);
    await expectInvariant(page.id);

    await refund(toPage, pageCharge);
    expect(await totals(s, page.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(await totals(s, parent.id)).toMatchObject({ raisedAmountCents: 2000, donationCount: 1 });
    await expectInvariant(parent.id);
  });
});

describe("POST /api/processor/webhooks: deliveries", () => {
  it("answers a repeated event ID with { received: true, duplicate: true } and changes nothing", async () => {
    const s = await givingSetup({ goalAmountCents: 5000 });
    const d = await pendingDonation(s.campaign.id, { amount: 5000 });
    const event = paymentSucceededEvent(d);
    const first = await deliver(event);
    expect(first.status).toBe(200);
    expect(first.body).toEqual(OK);
    const after = {
      totals: await totals(s, s.campaign.id),
      outbox: await outboxCount(s.org.id),
      timeline: await timelineCount(d.id),
      donor: await donorRow(d.donorId),
    };

    const second = await deliver(event); // Stripe's retry: same event, signed again
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ received: true, duplicate: true });
    expect(await totals(s, s.campaign.id)).toEqual(after.totals);
    expect(await outboxCount(s.org.id)).toBe(after.outbox);
    expect(await timelineCount(d.id)).toBe(after.timeline);
    expect(await donorRow(d.donorId)).toMatchObject({
      totalGivenCents: after.donor.totalGivenCents,
      donationCount: after.donor.donationCount,
    });
    expect(await processed(event.id)).toBe(1);
  });

  it("applies an event delivered several times at once exactly once, and concurrent events on other donations all count", async () => {
    const s = await givingSetup({ goalAmountCents: 20000 });
    const gifts = await Promise.all([1000, 2000, 3000, 4000].map((amount) => pendingDonation(s.campaign.id, { amount })));
    const repeated = paymentSucceededEvent(gifts[0]);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, () => deliver(repeated)),
      ...gifts.slice(1).map((d) => deliver(paymentSucceededEvent(d))),
    ]);
    expect(results.map((r) => r.status)).toEqual(Array(7).fill(200));
    const repeatedBodies = results.slice(0, 4).map((r) => r.body);
    expect(repeatedBodies.filter((b) => b.duplicate === true)).toHaveLength(3);
    expect(repeatedBodies.filter((b) => b.duplicate === undefined)).toEqual([OK]);
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 10000, donationCount: 4 });
    expect(await emailKeys(s.org.id)).toEqual(
      [
        ...gifts.flatMap((d) => [`email:admin:${d.id}`, `email:receipt:${d.id}`]),
        ...[25, 50].map((p) => `email:milestone:${s.campaign.id}:${p}`),
      ].sort(),
    );
    await expectInvariant(s.campaign.id);
  });

  // Also types named like Object.prototype's members: the handler map must not find those.
  it.each(["customer.created", "constructor", "toString", "__proto__"])(
    "acknowledges the unhandled event type %s with { received: true, ignored: true }",
    async (type) => {
      const event = fixture("customer.created", { type });
      const res = await deliver(event);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ received: true, ignored: true });
    },
  );

  it("acknowledges a handled event about nothing of ours with { received: true }", async () => {
    const res = await deliver(fixture("payment_intent.succeeded", { data: { object: { id: stripeId("pi_3") } } }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);
  });
});

describe("POST /api/processor/webhooks: signatures", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const cases: Array<[string, (event: ReturnType<typeof paymentSucceededEvent>) => { rawBody: string; headers: Record<string, string> }]> =
    [
      [
        "a missing signature header",
        (event) => {
          const delivery = signedDelivery(event);
          delete delivery.headers["Stripe-Signature"];
          return delivery;
        },
      ],
      ["a signature made with another secret", (event) => signedDelivery(event, { secret: "whsec_someone_else_0123456789" })],
      [
        "a tampered body",
        (event) => {
          const delivery = signedDelivery(event);
          const tampered = delivery.rawBody.replace(`"amount_received": ${event.data.object.amount_received}`, `"amount_received": 999999`);
          expect(tampered).not.toBe(delivery.rawBody);
          return { ...delivery, rawBody: tampered };
        },
      ],
      ["a timestamp older than 300 s", (event) => signedDelivery(event, { timestamp: now() - 301 })],
      [
        "a malformed header",
        (event) => ({
          ...signedDelivery(event),
          headers: { "content-type": "application/json", "Stripe-Signature": "t=abc,v1=not-a-signature" },
        }),
      ],
      [
        "a v0 (test-mode-only) signature",
        (event) => {
          const delivery = signedDelivery(event);
          return {
            ...delivery,
            headers: { ...delivery.headers, "Stripe-Signature": delivery.headers["Stripe-Signature"].replace("v1=", "v0=") },
          };
        },
      ],
    ];

  it.each(cases)("rejects %s with 400 Invalid signature and changes nothing", async (_name, build) => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id);
    const event = paymentSucceededEvent(d);
    const res = await deliver(build(event));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_SIGNATURE);
    expect((await donationRow(d.id)).status).toBe("PENDING");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(await outboxCount(s.org.id)).toBe(0);
    expect(await processed(event.id)).toBe(0);
  });

  it.each(["Processor-Signature", "Stripe-Signature"] as const)("accepts a valid signature in %s", async (header) => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id);
    const res = await deliver(paymentSucceededEvent(d), { header });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(OK);
    expect((await donationRow(d.id)).status).toBe("SUCCEEDED");
  });

  it("accepts a signature four minutes old (inside the 5-minute tolerance)", async () => {
    const s = await givingSetup();
    const d = await pendingDonation(s.campaign.id);
    const res = await deliver(paymentSucceededEvent(d), { timestamp: now() - 240 });
    expect(res.status).toBe(200);
    expect((await donationRow(d.id)).status).toBe("SUCCEEDED");
  });
});

describe("POST /api/processor/webhooks: failures", () => {
  it("answers 500 and keeps nothing of an event whose effects fail midway; the retry applies it once", async () => {
    const s = await givingSetup({ goalAmountCents: 5000 });
    const d = await pendingDonation(s.campaign.id, { amount: 5000 });
    expect(d.donorId).toMatch(/^[A-Za-z0-9_-]+$/);
    const db = await testDb();
    const tag = `gf_test_fail_${randomBytes(6).toString("hex")}`;
    // The database refuses to update this one donor: the donation and campaign updates of the
    // event run first, then the donor-totals update fails inside the same transaction.
    await db.execute(
      sql.raw(
        `create or replace function ${tag}() returns trigger language plpgsql as $$ begin raise exception 'simulated failure updating donor %', old.id; end $$`,
      ),
    );
    await db.execute(
      sql.raw(`create trigger ${tag} before update on donors for each row when (old.id = '${d.donorId}') execute function ${tag}()`),
    );
    const event = paymentSucceededEvent(d);
    try {
      const res = await deliver(event);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: "Internal server error", status: 500 });
    } finally {
      await db.execute(sql.raw(`drop trigger if exists ${tag} on donors`));
      await db.execute(sql.raw(`drop function if exists ${tag}()`));
    }

    const row = await donationRow(d.id);
    expect(row.status).toBe("PENDING");
    expect(row.chargeId).toBeNull();
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 0, donationCount: 0 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 0, donationCount: 0 });
    expect(await outboxCount(s.org.id)).toBe(0);
    expect(await processed(event.id)).toBe(0);
    const marks = await db.select().from(donationEvents).where(eq(donationEvents.processorEventId, event.id));
    expect(marks).toEqual([]);
    const [milestones] = await db
      .execute<{ n: number }>(sql`select count(*)::int as n from campaign_milestones where campaign_id = ${s.campaign.id}`)
      .then((r) => (Array.isArray(r) ? r : (r as unknown as { rows: { n: number }[] }).rows));
    expect(milestones.n).toBe(0);

    // The processor retries the same event: now it applies, once.
    const retry = await deliver(event);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(OK);
    expect((await donationRow(d.id)).status).toBe("SUCCEEDED");
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 5000, donationCount: 1 });
    expect(await donorRow(d.donorId)).toMatchObject({ totalGivenCents: 5000, donationCount: 1 });
    expect(await processed(event.id)).toBe(1);
    expect(await emailKeys(s.org.id)).toEqual(
      [`email:admin:${d.id}`, `email:receipt:${d.id}`, ...[25, 50, 75, 100].map((p) => `email:milestone:${s.campaign.id}:${p}`)].sort(),
    );
    expect((await deliver(event)).body).toEqual({ received: true, duplicate: true });
    expect(await totals(s, s.campaign.id)).toMatchObject({ raisedAmountCents: 5000, donationCount: 1 });
  });
});
