import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { campaigns, donations, donors, type DonationStatus } from "@/db/schema";
import { activeCampaign, activeOrg } from "../fixtures/processor";
import { get, newCampaign, newOrg, patch, post, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";

type Org = { id: string; slug: string } & Record<string, any>;

let owner: TestUser;
let org: Org;

beforeAll(async () => {
  ({ owner, org } = await newOrg(undefined, { name: "Friends of the Park" }));
});

async function published(body: Record<string, unknown> = {}) {
  const c = await newCampaign(org, owner.token, body);
  const res = await patch(`/api/campaigns/${c.id}`, { status: "ACTIVE" }, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body as typeof c;
}

type DonationSeed = {
  firstName?: string | null;
  anonymous?: boolean;
  amount: number;
  message?: string | null;
  status?: DonationStatus;
  createdAt?: Date;
};

/** Donation rows written straight to the database (the payment flow is not under test here). */
async function seedDonations(campaignId: string, seeds: DonationSeed[]) {
  const db = await testDb();
  const emails: string[] = [];
  for (const [i, s] of seeds.entries()) {
    const suffix = randomBytes(6).toString("hex");
    const email = `secret-donor-${suffix}@example.org`;
    emails.push(email);
    await db.insert(donors).values({ id: `dnr_${suffix}`, orgId: org.id, email, firstName: s.firstName ?? null, lastName: "Lastname" });
    await db.insert(donations).values({
      id: `don_${suffix}`,
      orgId: org.id,
      campaignId,
      donorId: `dnr_${suffix}`,
      amount: s.amount,
      email,
      firstName: s.firstName ?? null,
      lastName: "Lastname",
      anonymous: s.anonymous ?? false,
      message: s.message ?? null,
      status: s.status ?? "SUCCEEDED",
      createdAt: s.createdAt ?? new Date(Date.UTC(2030, 0, 1, 0, i)),
      succeededAt: (s.status ?? "SUCCEEDED") === "SUCCEEDED" ? new Date() : null,
    });
  }
  return emails;
}

async function setTotals(campaignId: string, raisedAmountCents: number, donationCount: number) {
  const db = await testDb();
  await db.update(campaigns).set({ raisedAmountCents, donationCount }).where(eq(campaigns.id, campaignId));
}

const byId = (id: string) => get(`/api/public/campaigns/${id}`);
const bySlug = (orgSlug: string, slug: string) => get(`/api/public/orgs/${orgSlug}/campaigns/${slug}`);

describe("GET /api/public/campaigns/:id", () => {
  it("GET /api/public/campaigns/:id needs no token and shows an ACTIVE campaign with its organization's name", async () => {
    const c = await published({ title: "Plant trees", description: "One per donor", goalAmountCents: 10_000 });
    const res = await byId(c.id);
    expect(res.status).toBe(200);
    expect(res.body.campaign).toMatchObject({
      id: c.id,
      title: "Plant trees",
      slug: c.slug,
      description: "One per donor",
      status: "ACTIVE",
      donateUrl: `http://localhost:3000/o/${org.slug}/donate/${c.slug}`,
    });
    expect(res.body.organization).toMatchObject({ id: org.id, name: "Friends of the Park", slug: org.slug });
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
  });

  it("GET /api/public/campaigns/:id answers 404 for a DRAFT", async () => {
    const draft = await newCampaign(org, owner.token);
    const res = await byId(draft.id);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Campaign not found", status: 404 });
  });

  it("GET /api/public/campaigns/:id answers 404 for an unknown campaign", async () => {
    const res = await byId("cmp_doesnotexist0000");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Campaign not found", status: 404 });
  });

  it("GET /api/public/campaigns/:id still shows a PAUSED or ENDED campaign, not accepting donations", async () => {
    const paused = await published();
    await patch(`/api/campaigns/${paused.id}`, { status: "PAUSED" }, { token: owner.token });
    const ended = await published();
    await patch(`/api/campaigns/${ended.id}`, { status: "ENDED" }, { token: owner.token });
    for (const [c, status] of [
      [paused, "PAUSED"],
      [ended, "ENDED"],
    ] as const) {
      const res = await byId(c.id);
      expect(res.status).toBe(200);
      expect(res.body.campaign.status).toBe(status);
      expect(res.body.acceptingDonations).toBe(false);
    }
  });

  it("GET /api/public/campaigns/:id shows progress when showGoal is on", async () => {
    const c = await published({ goalAmountCents: 10_000, showGoal: true });
    await setTotals(c.id, 2_500, 3);
    const res = await byId(c.id);
    expect(res.body.progress).toMatchObject({ goalAmountCents: 10_000, raisedAmountCents: 2_500, donationCount: 3, percent: 25 });
  });

  it("GET /api/public/campaigns/:id hides progress (null) and totals when showGoal is off", async () => {
    const c = await published({ goalAmountCents: 10_000, showGoal: false });
    await setTotals(c.id, 7_777, 2);
    const res = await byId(c.id);
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty("progress");
    expect(res.body.progress).toBeNull();
    expect(res.text).not.toContain("7777");
    expect(res.body.campaign).not.toHaveProperty("raisedAmountCents");
    expect(res.body.campaign).not.toHaveProperty("goalAmountCents");
  });

  it("GET /api/public/campaigns/:id shows the donor roll: first name or Anonymous, amount, message, time; never an email", async () => {
    const c = await published({ showDonorRoll: true });
    const emails = await seedDonations(c.id, [
      { firstName: "Alice", amount: 2_500, message: "Go team", createdAt: new Date("2030-01-01T10:00:00Z") },
      { firstName: "Bob", anonymous: true, amount: 5_000, createdAt: new Date("2030-01-02T10:00:00Z") },
      { firstName: null, amount: 1_000, createdAt: new Date("2030-01-03T10:00:00Z") },
      { firstName: "Failed", amount: 9_900, status: "FAILED", createdAt: new Date("2030-01-04T10:00:00Z") },
      { firstName: "Pending", amount: 9_800, status: "PENDING", createdAt: new Date("2030-01-05T10:00:00Z") },
    ]);
    const res = await byId(c.id);
    expect(res.status).toBe(200);
    expect(res.body.donorRoll).toEqual([
      { name: "Anonymous", amountCents: 1_000, message: null, createdAt: "2030-01-03T10:00:00.000Z" },
      { name: "Anonymous", amountCents: 5_000, message: null, createdAt: "2030-01-02T10:00:00.000Z" },
      { name: "Alice", amountCents: 2_500, message: "Go team", createdAt: "2030-01-01T10:00:00.000Z" },
    ]);
    expect(res.text).not.toContain("Bob");
    expect(res.text).not.toContain("Lastname");
    for (const email of emails) expect(res.text).not.toContain(email);
    expect(res.text).not.toContain(owner.email);
    expect(res.text).not.toContain("@");
    expect(res.text).not.toMatch(/"email"/i);
  });

  it("GET /api/public/campaigns/:id gives no donor roll (null) when showDonorRoll is off", async () => {
    const c = await published({ showDonorRoll: false });
    await seedDonations(c.id, [{ firstName: "Hidden", amount: 2_500 }]);
    const res = await byId(c.id);
    expect(res.status).toBe(200);
    expect(res.body).toHaveProperty("donorRoll");
    expect(res.body.donorRoll).toBeNull();
    expect(res.text).not.toContain("Hidden");
  });

  it("GET /api/public/campaigns/:id gives a P2P parent a leaderboard of its fundraiser pages sorted by raised", async () => {
    const parent = await published({ title: "Walkathon", type: "PEER_TO_PEER" });
    const low = await published({ title: "Lou's page", parentCampaignId: parent.id });
    const high = await published({ title: "Hana's page", parentCampaignId: parent.id });
    const mid = await published({ title: "Mia's page", parentCampaignId: parent.id });
    const draft = await newCampaign(org, owner.token, { title: "Unpublished page", parentCampaignId: parent.id });
    await setTotals(low.id, 1_000, 1);
    await setTotals(high.id, 90_000, 4);
    await setTotals(mid.id, 20_000, 2);
    await setTotals(draft.id, 999_999, 9);
    const res = await byId(parent.id);
    expect(res.status).toBe(200);
    expect(res.body.leaderboard).toEqual([
      { id: high.id, title: "Hana's page", slug: high.slug, raisedAmountCents: 90_000, donationCount: 4 },
      { id: mid.id, title: "Mia's page", slug: mid.slug, raisedAmountCents: 20_000, donationCount: 2 },
      { id: low.id, title: "Lou's page", slug: low.slug, raisedAmountCents: 1_000, donationCount: 1 },
    ]);
  });

  it("GET /api/public/campaigns/:id gives no leaderboard (null) outside a P2P parent", async () => {
    const plain = await published();
    expect((await byId(plain.id)).body.leaderboard).toBeNull();
    const parent = await published({ type: "PEER_TO_PEER" });
    const page = await published({ parentCampaignId: parent.id });
    expect((await byId(page.id)).body.leaderboard).toBeNull();
    expect((await byId(parent.id)).body.leaderboard).toEqual([expect.objectContaining({ id: page.id })]);
  });
});

describe("GET /api/public/orgs/:orgSlug/campaigns/:slug", () => {
  it("GET /api/public/orgs/:orgSlug/campaigns/:slug needs no token and shows an ACTIVE campaign", async () => {
    const c = await published({ title: "By slug" });
    const res = await bySlug(org.slug, c.slug);
    expect(res.status).toBe(200);
    expect(res.body.campaign).toMatchObject({ id: c.id, slug: c.slug, status: "ACTIVE" });
    expect(res.body.organization.name).toBe("Friends of the Park");
    expect(res.body).toEqual((await byId(c.id)).body);
  });

  it("GET /api/public/orgs/:orgSlug/campaigns/:slug answers 404 for a DRAFT", async () => {
    const draft = await newCampaign(org, owner.token);
    const res = await bySlug(org.slug, draft.slug);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Campaign not found", status: 404 });
  });

  it("GET /api/public/orgs/:orgSlug/campaigns/:slug answers 404 for an unknown org or slug, or another org's campaign", async () => {
    const c = await published();
    const { owner: otherOwner, org: other } = await newOrg();
    const theirs = await newCampaign(other, otherOwner.token, { slug: `theirs-${randomBytes(3).toString("hex")}` });
    await patch(`/api/campaigns/${theirs.id}`, { status: "ACTIVE" }, { token: otherOwner.token });
    for (const [o, s] of [
      ["no-such-org-here", c.slug],
      [org.slug, "no-such-campaign"],
      [org.slug, theirs.slug],
      [other.slug, c.slug],
    ]) {
      const res = await bySlug(o, s);
      expect(res.status, `${o}/${s}`).toBe(404);
      expect(res.body).toEqual({ error: "Campaign not found", status: 404 });
    }
    expect((await bySlug(other.slug, theirs.slug)).status).toBe(200);
  });

  it("GET /api/public/orgs/:orgSlug/campaigns/:slug has the same privacy rules as by ID", async () => {
    const c = await published({ showDonorRoll: true, showGoal: false });
    const emails = await seedDonations(c.id, [{ firstName: "Zoe", amount: 3_000 }]);
    const res = await bySlug(org.slug, c.slug);
    expect(res.body.progress).toBeNull();
    expect(res.body.donorRoll).toEqual([expect.objectContaining({ name: "Zoe", amountCents: 3_000 })]);
    expect(res.text).not.toContain(emails[0]);
    expect(res.text).not.toContain("@");
  });
});

describe("acceptingDonations", () => {
  const DAY = 86_400_000;
  const at = (offset: number) => new Date(Date.now() + offset).toISOString();
  const gift = (campaignId: string, tickets?: number) => ({
    campaignId,
    amount: tickets ? tickets * 1_000 : 2_500,
    tickets,
    email: `donor-${randomBytes(4).toString("hex")}@example.org`,
  });

  it("GET /api/public/orgs/:orgSlug/campaigns/:slug is false before a campaign's startDate and after its endDate, exactly when POST /api/donations refuses", async () => {
    const setup = await activeOrg();
    const event = { type: "EVENT", ticketPriceCents: 1_000, ticketCapacity: 10 };
    const cases: Array<{ name: string; body: Record<string, unknown>; accepting: boolean }> = [
      { name: "no dates", body: {}, accepting: true },
      { name: "starts tomorrow", body: { startDate: at(DAY) }, accepting: false },
      { name: "started a minute ago", body: { startDate: at(-60_000) }, accepting: true },
      { name: "ends tomorrow", body: { endDate: at(DAY) }, accepting: true },
      { name: "ended", body: { startDate: "2020-01-01T00:00:00Z", endDate: "2020-02-01T00:00:00Z" }, accepting: false },
      // An EVENT's start date is the event: its tickets sell before it, until its end date.
      { name: "event next week", body: { ...event, startDate: at(7 * DAY), endDate: at(7 * DAY + 3_600_000) }, accepting: true },
      { name: "event over", body: { ...event, startDate: at(-2 * DAY), endDate: at(-DAY) }, accepting: false },
    ];
    for (const { name, body, accepting } of cases) {
      const c = await activeCampaign(setup, { title: `Dates: ${name}`, ...body });
      const view = await bySlug(setup.org.slug, c.slug);
      expect(view.status, name).toBe(200);
      expect(view.body.acceptingDonations, name).toBe(accepting);
      const res = await post("/api/donations", gift(c.id, body.type === "EVENT" ? 1 : undefined));
      expect(res.status, `${name}: ${res.text}`).toBe(accepting ? 201 : 409);
      if (!accepting) expect(res.body).toEqual({ error: "Campaign is not accepting donations", status: 409 });
    }
  });

  it("is false for an ACTIVE campaign of an organization that can't take payments yet, as POST /api/donations is a 409", async () => {
    const c = await published();
    expect((await bySlug(org.slug, c.slug)).body).toMatchObject({ acceptingDonations: false, organization: { acceptingDonations: false } });
    expect((await post("/api/donations", gift(c.id))).status).toBe(409);
  });
});
