/**
 * GET /api/orgs/:idOrSlug/donors (search, every sort, totals) and GET /api/donors/:id (history
 * and plans), with gifts made through the API and the sandbox so the totals are the real ones.
 */
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { get, post, type TestUser } from "../helpers/api";
import {
  activeCampaign,
  activeOrg,
  CARD_DECLINED,
  insertDonations,
  memberOf,
  outsider,
  paidDonation,
  randomEmail,
  rowsOf,
  startDonation,
  type Campaign,
  type Org,
} from "../helpers/records";

const DONOR_FIELDS = [
  "id",
  "orgId",
  "email",
  "firstName",
  "lastName",
  "totalGivenCents",
  "donationCount",
  "firstDonationAt",
  "lastDonationAt",
  "erasedAt",
  "phone",
  "address",
  "tags",
  "emailOptIn",
  "source",
  "createdAt",
];

let owner: TestUser;
let member: TestUser;
let org: Org;
let campaign: Campaign;
let other: Campaign;
const emails = {
  ada: randomEmail("ada"),
  grace: randomEmail("grace"),
  emile: randomEmail("emile"),
  nameless: randomEmail("nameless"),
  pat: randomEmail("pat"),
  rita: randomEmail("rita"),
  carl: randomEmail("carl"),
};
let ritaSubscription: string;

beforeAll(async () => {
  ({ owner, org } = await activeOrg());
  member = await memberOf(org, owner, "MEMBER");
  campaign = await activeCampaign(org, owner, { title: "Library fund" });
  other = await activeCampaign(org, owner, { title: "Roof repair" });

  await paidDonation(campaign.id, { email: emails.ada, firstName: "Ada", lastName: "Lovelace", amount: 2500 });
  await paidDonation(other.id, { email: emails.ada.toUpperCase(), firstName: "Ada", lastName: "Lovelace", amount: 5000 });
  await paidDonation(campaign.id, { email: emails.ada, firstName: "Ada", lastName: "Lovelace", amount: 1000 }, CARD_DECLINED);
  await startDonation(campaign.id, { email: emails.ada, firstName: "Ada", lastName: "Lovelace", amount: 7000 });
  await paidDonation(campaign.id, { email: emails.grace, firstName: "Grace", lastName: "Hopper", amount: 10000 });
  await paidDonation(campaign.id, { email: emails.emile, firstName: "Émile", lastName: "Zola", amount: 1234 });
  await paidDonation(campaign.id, { email: emails.nameless, firstName: null, lastName: null, amount: 3000 });
  await startDonation(campaign.id, { email: emails.pat, firstName: "Pat", lastName: "Pending", amount: 4000 });
  await paidDonation(campaign.id, { email: emails.carl, firstName: "Carl", lastName: "Card", amount: 4000 }, CARD_DECLINED);
  const rita = await paidDonation(campaign.id, {
    email: emails.rita,
    firstName: "Rita",
    lastName: "Recurring",
    amount: 2000,
    recurringInterval: "MONTH",
  });
  ritaSubscription = rita.subscriptionId;
  const renewed = await post(`/api/sandbox/subscriptions/${ritaSubscription}/renew`, undefined, { token: owner.token });
  expect(renewed.status, renewed.text).toBe(202);

  // Another organization's donor with the same email: never listed here.
  const elsewhere = await activeOrg();
  await paidDonation((await activeCampaign(elsewhere.org, elsewhere.owner)).id, { email: emails.ada });
});

const list = (params: Record<string, string | number> = {}, token = member.token) =>
  get(`/api/orgs/${org.id}/donors?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`, { token });

async function all(params: Record<string, string> = {}) {
  const res = await list({ ...params, limit: 100 });
  expect(res.status, res.text).toBe(200);
  expect(res.body.pagination.hasMore).toBe(false);
  return res.body.data as any[];
}

describe("GET /api/orgs/:idOrSlug/donors", () => {
  it("GET /api/orgs/:idOrSlug/donors lists one donor per email (any case) with every documented field", async () => {
    const donors = await all();
    expect(donors.map((d) => d.email.toLowerCase()).sort()).toEqual(Object.values(emails).sort());
    for (const d of donors) {
      expect(Object.keys(d).sort()).toEqual([...DONOR_FIELDS].sort());
      expect(d.orgId).toBe(org.id);
    }
    const res = await list();
    expect(res.body.pagination).toEqual({ page: 1, limit: 25, total: 7, hasMore: false });
  });

  it("GET /api/orgs/:idOrSlug/donors totals equal the sum and count of each donor's SUCCEEDED donations", async () => {
    const truth = await rowsOf<{ donor_id: string; total: string; n: string; first: string | null; last: string | null }>(sql`
      select donor_id, coalesce(sum(amount) filter (where status = 'SUCCEEDED'), 0) as total,
             count(*) filter (where status = 'SUCCEEDED') as n,
             min(succeeded_at) filter (where status = 'SUCCEEDED') as first,
             max(succeeded_at) filter (where status = 'SUCCEEDED') as last
      from donations where org_id = ${org.id} group by donor_id`);
    const byId = new Map(truth.map((t) => [t.donor_id, t]));
    const donors = await all();
    const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
    for (const d of donors) {
      const t = byId.get(d.id)!;
      expect({ total: d.totalGivenCents, count: d.donationCount }, d.email).toEqual({ total: Number(t.total), count: Number(t.n) });
      expect(d.firstDonationAt).toBe(iso(t.first));
      expect(d.lastDonationAt).toBe(iso(t.last));
    }
    const byEmail = Object.fromEntries(donors.map((d) => [d.email.toLowerCase(), d]));
    expect(byEmail[emails.ada]).toMatchObject({ totalGivenCents: 7500, donationCount: 2, firstName: "Ada", lastName: "Lovelace" });
    expect(byEmail[emails.rita]).toMatchObject({ totalGivenCents: 4000, donationCount: 2 });
    expect(byEmail[emails.pat]).toMatchObject({ totalGivenCents: 0, donationCount: 0, firstDonationAt: null, lastDonationAt: null });
    expect(byEmail[emails.carl]).toMatchObject({ totalGivenCents: 0, donationCount: 0, lastDonationAt: null });
    expect(byEmail[emails.nameless]).toMatchObject({ firstName: null, lastName: null, totalGivenCents: 3000 });
  });

  const nameKey = (d: any) =>
    [d.lastName, d.firstName]
      .filter((x) => x !== null)
      .join(" ")
      .toLowerCase();
  const SORTS: Record<string, { key: (d: any) => string | number | null; nullsLast?: boolean }> = {
    total: { key: (d) => d.totalGivenCents },
    lastGift: { key: (d) => d.lastDonationAt, nullsLast: true },
    name: { key: (d) => nameKey(d) || null, nullsLast: true },
    createdAt: { key: (d) => d.createdAt },
  };

  describe.each(Object.keys(SORTS))("sort=%s", (sort) => {
    it.each(["asc", "desc"])(
      `GET /api/orgs/:idOrSlug/donors?sort=${sort}&order=%s orders every page the same way, nulls last`,
      async (order) => {
        const donors = await all({ sort, order });
        expect(donors).toHaveLength(7);
        const { key, nullsLast } = SORTS[sort];
        const keys = donors.map(key);
        const present = keys.filter((k) => k !== null);
        if (nullsLast) {
          // Every null after every value.
          expect(
            keys.slice(present.length).every((k) => k === null),
            JSON.stringify(keys),
          ).toBe(true);
          expect(keys.slice(present.length).length).toBeGreaterThan(0);
        } else {
          expect(present).toHaveLength(keys.length);
        }
        for (let i = 1; i < present.length; i++) {
          const [a, b] = [present[i - 1]!, present[i]!];
          if (order === "asc") expect(a <= b, `${String(a)} <= ${String(b)}`).toBe(true);
          else expect(a >= b, `${String(a)} >= ${String(b)}`).toBe(true);
        }
        // Pages of 2 put together are the same list: the order is total (ties broken by ID).
        const paged: any[] = [];
        for (let page = 1; page <= 4; page++) {
          const res = await list({ sort, order, page, limit: 2 });
          expect(res.body.pagination).toEqual({ page, limit: 2, total: 7, hasMore: page < 4 });
          paged.push(...res.body.data);
        }
        expect(paged.map((d) => d.id)).toEqual(donors.map((d) => d.id));
      },
    );
  });

  it("GET /api/orgs/:idOrSlug/donors sorts by total, descending, by default", async () => {
    expect((await all()).map((d) => d.id)).toEqual((await all({ sort: "total", order: "desc" })).map((d) => d.id));
    const names = (await all({ sort: "name", order: "asc" })).map((d) => d.lastName);
    expect(names).toEqual(["Card", "Hopper", "Lovelace", "Pending", "Recurring", "Zola", null]);
  });

  it.each([
    ["the last name, any case", "LOVELACE", ["ada"]],
    ["the first name", "grace", ["grace"]],
    ["the full name", "ada love", ["ada"]],
    ["an accented name", "Émile", ["emile"]],
    ["part of the email", "rita-", ["rita"]],
    ["the domain, matching everyone", "@example.org", Object.keys(emails)],
    ["a percent sign (taken literally)", "%", []],
    ["an underscore (taken literally)", "_", []],
    ["nothing that exists", "nobody-at-all", []],
  ])("GET /api/orgs/:idOrSlug/donors?q= searches %s", async (_name, q, expected) => {
    const res = await list({ q, limit: 100 });
    expect(res.status).toBe(200);
    const want = (expected as string[]).map((k) => emails[k as keyof typeof emails]).sort();
    expect(res.body.data.map((d: any) => d.email.toLowerCase()).sort()).toEqual(want);
    expect(res.body.pagination.total).toBe(want.length);
  });

  it.each([
    ["sort", { sort: "amount" }],
    ["order", { order: "up" }],
    ["limit", { limit: 0 }],
    ["limit", { limit: 101 }],
    ["page", { page: 0 }],
  ])("GET /api/orgs/:idOrSlug/donors answers 400 on a bad %s", async (field, params) => {
    const res = await list(params as Record<string, string>);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.details.fieldErrors)).toEqual([field]);
  });
});

describe("GET /api/donors/:id", () => {
  const donorId = async (email: string) => (await all()).find((d) => d.email.toLowerCase() === email)!.id as string;

  it("GET /api/donors/:id answers the donor with every donation, newest first, with its campaign's title", async () => {
    const id = await donorId(emails.ada);
    const res = await get(`/api/donors/${id}`, { token: member.token });
    expect(res.status, res.text).toBe(200);
    const { donations, recurringPlans, ...donor } = res.body;
    expect(Object.keys(donor).sort()).toEqual([...DONOR_FIELDS].sort());
    expect(donor).toMatchObject({ id, email: emails.ada, totalGivenCents: 7500, donationCount: 2 });
    expect(recurringPlans).toEqual([]);
    expect(donations.map((d: any) => [d.amount, d.status, d.campaignTitle])).toEqual([
      [7000, "PENDING", "Library fund"],
      [1000, "FAILED", "Library fund"],
      [5000, "SUCCEEDED", "Roof repair"],
      [2500, "SUCCEEDED", "Library fund"],
    ]);
    for (const d of donations) expect(d.donorId).toBe(id);
    // The totals are what the history says.
    const succeeded = donations.filter((d: any) => d.status === "SUCCEEDED");
    expect(succeeded.reduce((s: number, d: any) => s + d.amount, 0)).toBe(donor.totalGivenCents);
    expect(succeeded).toHaveLength(donor.donationCount);
  });

  it("GET /api/donors/:id includes the donor's recurring plans with what they raised", async () => {
    const id = await donorId(emails.rita);
    const res = await get(`/api/donors/${id}`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.donations.map((d: any) => d.isRenewal)).toEqual([true, false]);
    expect(res.body.recurringPlans).toEqual([
      expect.objectContaining({
        orgId: org.id,
        campaignId: campaign.id,
        campaignTitle: "Library fund",
        donorId: id,
        email: emails.rita,
        amount: 2000,
        interval: "MONTH",
        status: "ACTIVE",
        subscriptionId: ritaSubscription,
        canceledAt: null,
        donationCount: 2,
        totalCents: 4000,
      }),
    ]);
  });

  it("GET /api/donors/:id caps the history at the newest 100 donations", async () => {
    const id = await donorId(emails.pat);
    await insertDonations(
      Array.from({ length: 105 }, (_, i) => ({
        orgId: org.id,
        campaignId: campaign.id,
        donorId: id,
        createdAt: `2020-01-01T00:00:${String(i % 60).padStart(2, "0")}.${String(i).padStart(6, "0")}Z`,
      })),
    );
    const res = await get(`/api/donors/${id}`, { token: member.token });
    expect(res.body.donations).toHaveLength(100);
    const times = res.body.donations.map((d: any) => d.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(res.body.donations[0].amount).toBe(4000); // the real (newest) gift first
  });

  it("GET /api/donors/:id without a token answers 401, even for an unknown donor", async () => {
    for (const id of [await donorId(emails.grace), "dnr_unknown000000000000"]) {
      const res = await get(`/api/donors/${id}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "Unauthorized", status: 401 });
    }
  });

  it("GET /api/donors/:id of an unknown donor answers 404 Donor not found, before checking membership", async () => {
    for (const token of [member.token, (await outsider()).token]) {
      const res = await get("/api/donors/dnr_unknown000000000000", { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "Donor not found", status: 404 });
    }
  });

  it("GET /api/donors/:id by a non-member answers 403", async () => {
    const res = await get(`/api/donors/${await donorId(emails.grace)}`, { token: (await outsider()).token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: "Forbidden", status: 403 });
  });
});
