/**
 * GET /api/orgs/:idOrSlug/recurring-plans and POST /api/recurring-plans/:id/cancel, with plans
 * made through the API and the sandbox (whose cancellation sends `customer.subscription.deleted`
 * through the webhook path at once).
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { recurringPlans } from "@/db/schema";
import { newId } from "@/lib/ids";
import { get, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import {
  activeCampaign,
  activeOrg,
  insertDonor,
  memberOf,
  outsider,
  paidDonation,
  startDonation,
  type Campaign,
  type Org,
} from "../helpers/records";

const PLAN_FIELDS = [
  "id",
  "orgId",
  "campaignId",
  "campaignTitle",
  "donorId",
  "email",
  "amount",
  "currency",
  "interval",
  "status",
  "subscriptionId",
  "createdAt",
  "canceledAt",
  "canceledBy",
  "pastDueAt",
  "nextRetryAt",
  "card",
  "donationCount",
  "totalCents",
];

let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let org: Org;
let campaign: Campaign;
let monthly: Record<string, any>;
let yearly: Record<string, any>;
let incomplete: Record<string, any>;

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  admin = await memberOf(org, owner, "ADMIN");
  member = await memberOf(org, owner, "MEMBER");
  campaign = await activeCampaign(org, owner, { title: "Monthly heroes" });
  monthly = await paidDonation(campaign.id, { amount: 2000, recurringInterval: "MONTH", email: "monthly@example.org" });
  yearly = await paidDonation(campaign.id, { amount: 12000, recurringInterval: "YEAR", email: "yearly@example.org" });
  incomplete = await startDonation(campaign.id, { amount: 1500, recurringInterval: "MONTH", email: "incomplete@example.org" });
  for (let i = 0; i < 2; i++) {
    const res = await post(`/api/sandbox/subscriptions/${monthly.subscriptionId}/renew`, undefined, { token: owner.token });
    expect(res.status, res.text).toBe(202);
  }
  // A one-time gift makes no plan.
  await paidDonation(campaign.id);
});

const plans = async (query = "", token = member.token) => {
  const res = await get(`/api/orgs/${org.slug}/recurring-plans${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as { data: any[]; pagination: any };
};

describe("GET /api/orgs/:idOrSlug/recurring-plans", () => {
  it("GET /api/orgs/:idOrSlug/recurring-plans lists every plan, newest first, with its SUCCEEDED totals", async () => {
    const { data, pagination } = await plans();
    expect(pagination).toEqual({ page: 1, limit: 25, total: 3, hasMore: false });
    expect(data.map((p) => p.id)).toEqual([incomplete.recurringPlanId, yearly.recurringPlanId, monthly.recurringPlanId]);
    for (const p of data) expect(Object.keys(p).sort()).toEqual([...PLAN_FIELDS].sort());
    const [i, y, m] = data;
    expect(m).toMatchObject({
      orgId: org.id,
      campaignId: campaign.id,
      campaignTitle: "Monthly heroes",
      donorId: monthly.donorId,
      email: "monthly@example.org",
      amount: 2000,
      currency: "usd",
      interval: "MONTH",
      status: "ACTIVE",
      subscriptionId: monthly.subscriptionId,
      canceledAt: null,
      canceledBy: null,
      donationCount: 3,
      totalCents: 6000,
    });
    expect(y).toMatchObject({ interval: "YEAR", status: "ACTIVE", donationCount: 1, totalCents: 12000 });
    expect(i).toMatchObject({ status: "INCOMPLETE", subscriptionId: incomplete.subscriptionId, donationCount: 0, totalCents: 0 });
  });

  it("GET /api/orgs/:idOrSlug/recurring-plans filters by status and pages", async () => {
    expect((await plans("?status=ACTIVE")).data.map((p) => p.id).sort()).toEqual([monthly.recurringPlanId, yearly.recurringPlanId].sort());
    expect((await plans("?status=INCOMPLETE")).data.map((p) => p.id)).toEqual([incomplete.recurringPlanId]);
    expect((await plans("?status=PAST_DUE")).data).toEqual([]);
    const page2 = await plans("?page=2&limit=2");
    expect(page2.pagination).toEqual({ page: 2, limit: 2, total: 3, hasMore: false });
    expect(page2.data.map((p) => p.id)).toEqual([monthly.recurringPlanId]);
  });

  it("GET /api/orgs/:idOrSlug/recurring-plans answers 400 on an unknown status or a bad limit", async () => {
    for (const q of ["?status=PAUSED", "?limit=0", "?limit=101"]) {
      const res = await get(`/api/orgs/${org.id}/recurring-plans${q}`, { token: member.token });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Validation failed");
    }
  });
});

describe("POST /api/recurring-plans/:id/cancel", () => {
  it("POST /api/recurring-plans/:id/cancel by a MEMBER answers 403 and cancels nothing", async () => {
    const res = await post(`/api/recurring-plans/${yearly.recurringPlanId}/cancel`, undefined, { token: member.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Forbidden", status: 403 });
    expect((await plans("?status=ACTIVE")).data.map((p) => p.id)).toContain(yearly.recurringPlanId);
  });

  it("POST /api/recurring-plans/:id/cancel by an ADMIN cancels the subscription: the plan is CANCELED at once (sandbox)", async () => {
    const res = await post(`/api/recurring-plans/${monthly.recurringPlanId}/cancel`, undefined, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([...PLAN_FIELDS].sort());
    expect(res.body).toMatchObject({
      id: monthly.recurringPlanId,
      status: "CANCELED",
      canceledAt: expect.any(String),
      canceledBy: "staff",
      donationCount: 3,
      totalCents: 6000,
    });
    expect(Date.parse(res.body.canceledAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await plans("?status=CANCELED")).data.map((p) => p.id)).toEqual([monthly.recurringPlanId]);
    // No further renewals count on it: the donor keeps what was given.
    const donor = await get(`/api/donors/${monthly.donorId}`, { token: member.token });
    expect(donor.body.recurringPlans[0]).toMatchObject({ status: "CANCELED" });
  });

  it("POST /api/recurring-plans/:id/cancel again answers 409", async () => {
    const res = await post(`/api/recurring-plans/${monthly.recurringPlanId}/cancel`, undefined, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "Recurring plan is already canceled", status: 409 });
  });

  it("POST /api/recurring-plans/:id/cancel of an INCOMPLETE plan cancels its subscription too", async () => {
    const res = await post(`/api/recurring-plans/${incomplete.recurringPlanId}/cancel`, undefined, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("CANCELED");
  });

  it("POST /api/recurring-plans/:id/cancel of a plan without a subscription answers 409", async () => {
    const db = await testDb();
    const donor = await insertDonor(org.id);
    const [plan] = await db
      .insert(recurringPlans)
      .values({
        id: newId("rp"),
        orgId: org.id,
        campaignId: campaign.id,
        donorId: donor.id,
        amount: 1000,
        currency: "usd",
        interval: "MONTH",
      })
      .returning();
    const res = await post(`/api/recurring-plans/${plan.id}/cancel`, undefined, { token: owner.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "Recurring plan has no subscription to cancel", status: 409 });
    const [after] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, plan.id));
    expect(after.status).toBe("INCOMPLETE");
  });

  it("POST /api/recurring-plans/:id/cancel without a token answers 401, even for an unknown plan", async () => {
    for (const id of [yearly.recurringPlanId, "rp_unknown000000000000"]) {
      const res = await post(`/api/recurring-plans/${id}/cancel`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    }
  });

  it("POST /api/recurring-plans/:id/cancel of an unknown plan answers 404, before checking membership", async () => {
    for (const token of [owner.token, (await outsider()).token]) {
      const res = await post("/api/recurring-plans/rp_unknown000000000000/cancel", undefined, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Recurring plan not found", status: 404 });
    }
  });

  it("POST /api/recurring-plans/:id/cancel by a non-member answers 403", async () => {
    const res = await post(`/api/recurring-plans/${yearly.recurringPlanId}/cancel`, undefined, { token: (await outsider()).token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Forbidden", status: 403 });
    expect((await plans("?status=ACTIVE")).data.map((p) => p.id)).toEqual([yearly.recurringPlanId]);
  });

  it("GET /api/recurring-plans/:id/cancel answers 405", async () => {
    const res = await get(`/api/recurring-plans/${yearly.recurringPlanId}/cancel`, { token: owner.token });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
