/**
 * GET /api/orgs/:idOrSlug/reports/{summary,timeseries,campaigns}. Every number is checked against
 * a computation in plain TypeScript over the same rows (written from the documented semantics,
 * sharing nothing with the SQL): random organizations with random donations, statuses, times,
 * donors, campaigns (a peer-to-peer parent with fundraiser pages) and plans, queried with random
 * windows whose bounds often sit exactly on a gift or a midnight, in organizations of several time
 * zones (whose midnights start the reports' days). A few organizations also
 * get real money movements through the sandbox and the webhook endpoint, so the aggregates the
 * reports read are the ones moveDonation maintains.
 */
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/db";
import { getCampaignReport, getReportSummary, getReportTimeseries, type ReportStrategy } from "@/db/queries/reports";
import { campaigns, donations, donors, memberships, organizations, recurringPlans } from "@/db/schema";
import { sandboxEvent } from "@/lib/processor/sandbox";
import { CYCLES_PER_YEAR } from "@/lib/recurring-intervals";
import { RECURRING_INTERVALS, type RecurringInterval } from "@/lib/schemas/donations";
import { getSandboxProcessor } from "@/lib/services/processor/get-processor";
import { addMember, get, newCampaign, newOrg, newUser, patch, post, type ApiResponse, type TestUser } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";

// ---------------------------------------------------------------------------------------------
// The model: what each number means, over plain objects.

type Status = "PENDING" | "SUCCEEDED" | "FAILED" | "DISPUTED" | "REFUNDED" | "VOIDED";
type Interval = "day" | "week" | "month";
type ModelDonation = { campaignId: string; donorId: string; amount: number; status: Status; createdAt: number; succeededAt: number | null };
type ModelCampaign = {
  id: string;
  title: string;
  status: string;
  type: string;
  parentCampaignId: string | null;
  goalAmountCents: number | null;
};
type ModelPlan = { amount: number; interval: RecurringInterval; status: string };
type Data = { campaigns: ModelCampaign[]; donations: ModelDonation[]; plans: ModelPlan[]; timeZone: string };
/** Milliseconds since the epoch; null is unbounded. */
type Win = { from: number | null; to: number | null };

const DAY = 86_400_000;
const inWindow = (t: number, w: Win) => (w.from === null || t >= w.from) && (w.to === null || t < w.to);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const counted = (d: Data, w: Win) => d.donations.filter((x) => x.status === "SUCCEEDED" && inWindow(x.succeededAt!, w));

function expectedSummary(d: Data, w: Win) {
  const gifts = counted(d, w);
  const raised = sum(gifts.map((x) => x.amount));
  const firstGift = new Map<string, number>();
  for (const x of d.donations) {
    if (x.status !== "SUCCEEDED") continue;
    firstGift.set(x.donorId, Math.min(firstGift.get(x.donorId) ?? Infinity, x.succeededAt!));
  }
  const reversed = (s: Status) => d.donations.filter((x) => x.status === s && inWindow(x.succeededAt ?? x.createdAt, w));
  const active = d.plans.filter((p) => p.status === "ACTIVE");
  const yearly = sum(active.map((p) => p.amount * CYCLES_PER_YEAR[p.interval]));
  return {
    raisedCents: raised,
    count: gifts.length,
    donors: new Set(gifts.map((x) => x.donorId)).size,
    newDonors: [...firstGift.values()].filter((t) => inWindow(t, w)).length,
    averageGiftCents: gifts.length === 0 ? 0 : Math.round(raised / gifts.length),
    recurringMonthlyValueCents: Math.round(yearly / 12),
    refundedCents: sum(reversed("REFUNDED").map((x) => x.amount)),
    refundedCount: reversed("REFUNDED").length,
    disputedCents: sum(reversed("DISPUTED").map((x) => x.amount)),
    disputedCount: reversed("DISPUTED").length,
  };
}

/** The local calendar date of the instant `t` in `tz`, as a UTC midnight (so dates can be counted with Date.UTC). */
function localDate(t: number, tz: string): number {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(t));
  return Date.parse(`${parts}T00:00:00Z`);
}

/** The first instant whose local date in `tz` is `date` (a UTC midnight), found by bisection. */
function localMidnight(date: number, tz: string): number {
  let lo = date - 16 * 3_600_000;
  let hi = date + 16 * 3_600_000;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localDate(mid, tz) >= date) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The local date starting the day / Monday-based week / month holding `t`, in `tz`. */
function bucketOf(t: number, interval: Interval, tz: string): number {
  const midnight = localDate(t, tz);
  const d = new Date(midnight);
  if (interval === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (interval === "day") return midnight;
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  return midnight - sinceMonday * DAY;
}

function following(start: number, interval: Interval): number {
  const d = new Date(start);
  if (interval === "month") return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + (interval === "day" ? 1 : 7));
}

function expectedSeries(d: Data, w: Win, interval: Interval) {
  const tz = d.timeZone;
  const gifts = counted(d, w);
  if (w.from !== null && w.to !== null && w.from === w.to) return [];
  const times = gifts.map((x) => x.succeededAt!);
  // Test bounds have millisecond precision, so the last instant before `to` is one millisecond earlier.
  const first = w.from !== null ? bucketOf(w.from, interval, tz) : times.length ? bucketOf(Math.min(...times), interval, tz) : null;
  const last = w.to !== null ? bucketOf(w.to - 1, interval, tz) : times.length ? bucketOf(Math.max(...times), interval, tz) : null;
  if (first === null || last === null) return [];
  const out: { start: string; date: string; raisedCents: number; count: number }[] = [];
  for (let b = first; b <= last; b = following(b, interval)) {
    const inside = gifts.filter((x) => bucketOf(x.succeededAt!, interval, tz) === b);
    out.push({
      start: new Date(localMidnight(b, tz)).toISOString(),
      date: new Date(b).toISOString().slice(0, 10),
      raisedCents: sum(inside.map((x) => x.amount)),
      count: inside.length,
    });
  }
  return out;
}

function expectedCampaigns(d: Data, w: Win) {
  const gifts = counted(d, w);
  const own = (id: string) => gifts.filter((x) => x.campaignId === id);
  const rows = d.campaigns.map((c) => {
    const mine = own(c.id);
    const withPages = [...mine, ...d.campaigns.filter((p) => p.parentCampaignId === c.id).flatMap((p) => own(p.id))];
    return {
      campaignId: c.id,
      title: c.title,
      status: c.status,
      type: c.type,
      parentCampaignId: c.parentCampaignId,
      goalAmountCents: c.goalAmountCents,
      raisedCents: sum(mine.map((x) => x.amount)),
      count: mine.length,
      donors: new Set(mine.map((x) => x.donorId)).size,
      raisedIncludingPagesCents: sum(withPages.map((x) => x.amount)),
      countIncludingPages: withPages.length,
    };
  });
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort((a, b) => b.raisedCents - a.raisedCents || order(a.title, b.title) || order(a.campaignId, b.campaignId));
}

// ---------------------------------------------------------------------------------------------
// Fixtures: organizations filled directly, with every aggregate set as moveDonation leaves it.

let db: Db;
let member: TestUser;

beforeAll(async () => {
  db = await testDb();
  member = await newUser("Report reader");
  expect((await get("/api/orgs", { token: member.token })).status).toBe(200);
});

const hex = () => randomBytes(6).toString("hex");

/** A fresh organization `member` belongs to (as MEMBER, enough for reports), in the time zone `timeZone`. */
async function bareOrg(timeZone = "UTC"): Promise<string> {
  const id = `org_rep${hex()}`;
  await db.insert(organizations).values({ id, name: "Reports test", slug: `rep-${hex()}`, status: "ACTIVE", timeZone });
  await db.insert(memberships).values({ orgId: id, userId: member.sub, role: "MEMBER" });
  return id;
}

/** Recomputes what moveDonation maintains for `orgId`: campaign and donor totals, the per-day totals. */
async function setAggregates(orgId: string) {
  await db.execute(sql`
    update campaigns c set
      raised_amount_cents = coalesce((select sum(d.amount) from donations d join campaigns x on x.id = d.campaign_id
                                      where d.status = 'SUCCEEDED' and (x.id = c.id or x.parent_campaign_id = c.id)), 0),
      donation_count = (select count(*) from donations d join campaigns x on x.id = d.campaign_id
                        where d.status = 'SUCCEEDED' and (x.id = c.id or x.parent_campaign_id = c.id))
    where c.org_id = ${orgId}`);
  await db.execute(sql`
    update donors o set
      total_given_cents = coalesce((select sum(amount) from donations where donor_id = o.id and status = 'SUCCEEDED'), 0),
      donation_count = (select count(*) from donations where donor_id = o.id and status = 'SUCCEEDED'),
      first_donation_at = (select min(succeeded_at) from donations where donor_id = o.id and status = 'SUCCEEDED'),
      last_donation_at = (select max(succeeded_at) from donations where donor_id = o.id and status = 'SUCCEEDED')
    where o.org_id = ${orgId}`);
  await db.execute(sql`
    insert into campaign_daily_totals (org_id, campaign_id, day, raised_cents, donation_count)
    select org_id, campaign_id, (succeeded_at at time zone (select time_zone from organizations where id = ${orgId}))::date, sum(amount), count(*)
    from donations where org_id = ${orgId} and status = 'SUCCEEDED' group by 1, 2, 3`);
}

type Spec = {
  plain: { title: string; status: "DRAFT" | "ACTIVE" | "PAUSED" | "ENDED"; goal: number | null }[];
  pages: number;
  donors: number;
  donations: {
    campaign: number;
    donor: number;
    amount: number;
    status: Status;
    at: number;
    createdBefore: number;
    neverSucceeded: boolean;
  }[];
  plans: ModelPlan[];
  timeZone?: string;
};

/** Inserts `spec` into a new organization; answers it and the model of what was inserted. */
async function seed(spec: Spec): Promise<{ orgId: string; data: Data }> {
  const timeZone = spec.timeZone ?? "UTC";
  const orgId = await bareOrg(timeZone);
  const parent: ModelCampaign = {
    id: `cmp_rep${hex()}`,
    title: "Peer drive",
    status: "ACTIVE",
    type: "PEER_TO_PEER",
    parentCampaignId: null,
    goalAmountCents: 500_000,
  };
  const list: ModelCampaign[] = [
    parent,
    ...spec.plain.map((p) => ({
      id: `cmp_rep${hex()}`,
      title: p.title,
      status: p.status,
      type: "DONATION",
      parentCampaignId: null,
      goalAmountCents: p.goal,
    })),
    ...Array.from({ length: spec.pages }, (_, i) => ({
      id: `cmp_rep${hex()}`,
      title: `Page ${i}`,
      status: "ACTIVE",
      type: "DONATION",
      parentCampaignId: parent.id,
      goalAmountCents: null,
    })),
  ];
  await db.insert(campaigns).values(
    list.map((c) => ({
      id: c.id,
      orgId,
      title: c.title,
      slug: c.id.toLowerCase().replace(/_/g, "-"),
      status: c.status as "ACTIVE",
      type: c.type as "DONATION",
      goalAmountCents: c.goalAmountCents,
    })),
  );
  for (const c of list.filter((x) => x.parentCampaignId)) {
    await db.execute(sql`update campaigns set parent_campaign_id = ${c.parentCampaignId} where id = ${c.id}`);
  }
  const donorIds = Array.from({ length: spec.donors }, () => `dnr_rep${hex()}`);
  await db.insert(donors).values(donorIds.map((id) => ({ id, orgId, email: `${id}@example.org` })));
  const modelDonations: ModelDonation[] = spec.donations.map((x) => {
    const succeeded = x.status === "SUCCEEDED" || ((x.status === "REFUNDED" || x.status === "DISPUTED") && !x.neverSucceeded);
    return {
      campaignId: list[x.campaign % list.length].id,
      donorId: donorIds[x.donor % donorIds.length],
      amount: x.amount,
      status: x.status,
      createdAt: x.at - x.createdBefore,
      succeededAt: succeeded ? x.at : null,
    };
  });
  if (modelDonations.length) {
    await db.insert(donations).values(
      modelDonations.map((x) => ({
        id: `don_rep${hex()}`,
        orgId,
        campaignId: x.campaignId,
        donorId: x.donorId,
        amount: x.amount,
        email: `${x.donorId}@example.org`,
        status: x.status,
        createdAt: new Date(x.createdAt),
        succeededAt: x.succeededAt === null ? null : new Date(x.succeededAt),
      })),
    );
  }
  if (spec.plans.length) {
    await db.insert(recurringPlans).values(
      spec.plans.map((p) => ({
        id: `rp_rep${hex()}`,
        orgId,
        campaignId: list[1 % list.length].id,
        donorId: donorIds[0],
        amount: p.amount,
        currency: "usd",
        interval: p.interval,
        status: p.status as "ACTIVE",
      })),
    );
  }
  await setAggregates(orgId);
  return { orgId, data: { campaigns: list, donations: modelDonations, plans: spec.plans, timeZone } };
}

// ---------------------------------------------------------------------------------------------
// Calling the API.

const iso = (t: number | null) => (t === null ? undefined : new Date(t).toISOString());

function query(w: Win, extra: Record<string, string> = {}) {
  const q = new URLSearchParams(extra);
  if (w.from !== null) q.set("from", iso(w.from)!);
  if (w.to !== null) q.set("to", iso(w.to)!);
  const s = q.toString();
  return s ? `?${s}` : "";
}

async function report(orgId: string, kind: "summary" | "timeseries" | "campaigns", w: Win, extra?: Record<string, string>) {
  const res = await get(`/api/orgs/${orgId}/reports/${kind}${query(w, extra)}`, { token: member.token });
  expect(res.status, res.text).toBe(200);
  expect(res.body.from).toBe(iso(w.from) ?? null);
  expect(res.body.to).toBe(iso(w.to) ?? null);
  return res.body;
}

/** Every report, through the API and through both strategies of the query functions, against the model. */
async function checkAll(orgId: string, data: Data, w: Win, interval: Interval) {
  const summary = expectedSummary(data, w);
  const series = expectedSeries(data, w, interval);
  const perCampaign = expectedCampaigns(data, w);
  const got = await report(orgId, "summary", w);
  expect(got).toEqual({ from: iso(w.from) ?? null, to: iso(w.to) ?? null, currency: "usd", ...summary });
  const ts = await report(orgId, "timeseries", w, { interval });
  expect(ts.interval).toBe(interval);
  expect(ts.buckets).toEqual(series);
  const cs = await report(orgId, "campaigns", w);
  expect(cs.data).toEqual(perCampaign);
  expect(cs.pagination).toEqual({ page: 1, limit: perCampaign.length, total: perCampaign.length, hasMore: false });

  const window = { from: iso(w.from) ?? null, to: iso(w.to) ?? null };
  // The donor count is exact: what a plain COUNT(DISTINCT) over the same gifts says.
  const bounds = [
    ...(window.from ? [sql`succeeded_at >= ${window.from}::timestamptz`] : []),
    ...(window.to ? [sql`succeeded_at < ${window.to}::timestamptz`] : []),
  ];
  const direct = await db.execute(
    sql`select count(distinct donor_id) as n from donations where org_id = ${orgId} and status = 'SUCCEEDED'
        ${bounds.length ? sql` and ${sql.join(bounds, sql` and `)}` : sql``}`,
  );
  const directRows = (Array.isArray(direct) ? direct : (direct as unknown as { rows: { n: unknown }[] }).rows) as { n: unknown }[];
  expect(got.donors).toBe(Number(directRows[0].n));
  // Distinct donors both ways, whatever the window's size.
  expect(await getReportSummary(db, orgId, window, { distinctDonorsFrom: "donors" })).toEqual(summary);
  expect(await getReportSummary(db, orgId, window, { distinctDonorsFrom: "gifts" })).toEqual(summary);
  for (const strategy of ["aggregates", "scan"] as ReportStrategy[]) {
    expect(await getReportSummary(db, orgId, window, { strategy })).toEqual(summary);
    expect(await getReportTimeseries(db, orgId, window, interval, { strategy })).toEqual(series);
    expect(await getCampaignReport(db, orgId, window, { strategy })).toEqual(perCampaign);
  }
}

// ---------------------------------------------------------------------------------------------
// Random data. Times fall in a few weeks around a month end, often exactly on a midnight of one of
// the zones (UTC, New York, Kolkata, Chatham at +13:45 in January), so windows cut days, weeks and
// months in every way; bounds are drawn from the gifts' own times.

const T0 = Date.UTC(2031, 0, 20);
const SPAN = 45 * DAY;
const timeArb = fc.oneof(
  fc.integer({ min: 0, max: SPAN }).map((ms) => T0 + ms),
  fc.integer({ min: 0, max: 45 }).map((d) => T0 + d * DAY),
  fc.integer({ min: 0, max: 45 }).map((d) => T0 + d * DAY - 1),
  // Local midnights (and the millisecond before) in New York, Kolkata and Chatham.
  fc
    .tuple(fc.integer({ min: 0, max: 45 }), fc.constantFrom(5, -5.5, -13.75), fc.constantFrom(0, -1))
    .map(([d, hours, edge]) => T0 + d * DAY + hours * 3_600_000 + edge),
);
const TIME_ZONES = ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham"];
const specArb: fc.Arbitrary<Spec> = fc.record({
  plain: fc.array(
    fc.record({
      title: fc.constantFrom("Alpha", "Beta", "Beta", "Gamma"),
      status: fc.constantFrom("DRAFT" as const, "ACTIVE" as const, "PAUSED" as const, "ENDED" as const),
      goal: fc.option(fc.integer({ min: 100, max: 1_000_000 }), { nil: null }),
    }),
    { minLength: 0, maxLength: 4 },
  ),
  pages: fc.integer({ min: 0, max: 3 }),
  donors: fc.integer({ min: 1, max: 6 }),
  donations: fc.array(
    fc.record({
      campaign: fc.nat(20),
      donor: fc.nat(20),
      amount: fc.integer({ min: 100, max: 200_000 }),
      status: fc.constantFrom<Status>("SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "PENDING", "FAILED", "DISPUTED", "REFUNDED"),
      at: timeArb,
      createdBefore: fc.integer({ min: 0, max: 3 * DAY }),
      neverSucceeded: fc.boolean(),
    }),
    { maxLength: 30 },
  ),
  plans: fc.array(
    fc.record({
      amount: fc.integer({ min: 100, max: 100_000 }),
      interval: fc.constantFrom(...RECURRING_INTERVALS),
      status: fc.constantFrom("ACTIVE", "ACTIVE", "CANCELED", "PAST_DUE", "INCOMPLETE"),
    }),
    { maxLength: 5 },
  ),
  timeZone: fc.constantFrom(...TIME_ZONES),
});

function windowArb(times: number[]): fc.Arbitrary<Win> {
  const bound = fc.oneof(
    fc.constant(null),
    timeArb,
    times.length ? fc.constantFrom(...times) : timeArb,
    times.length ? fc.constantFrom(...times).map((t) => t + 1) : timeArb,
  );
  return fc.tuple(bound, bound).map(([a, b]) => (a !== null && b !== null && a > b ? { from: b, to: a } : { from: a, to: b }));
}

const intervalArb = fc.constantFrom<Interval>("day", "week", "month");
/** A data set and a few windows (with an interval each) cut around its own times. */
const caseArb = specArb.chain((spec) => {
  const times = spec.donations.flatMap((x) => [x.at, x.at - x.createdBefore]);
  return fc.tuple(fc.constant(spec), fc.array(fc.tuple(windowArb(times), intervalArb), { minLength: 1, maxLength: 3 }), intervalArb);
});

describe("reports over random data", () => {
  it("GET …/reports/{summary,timeseries,campaigns} equal a computation over the rows, for random windows and intervals", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ([spec, windows, allTimeInterval]) => {
        const { orgId, data } = await seed(spec);
        await checkAll(orgId, data, { from: null, to: null }, allTimeInterval);
        for (const [w, interval] of windows) await checkAll(orgId, data, w, interval);
      }),
      { numRuns: process.env.TEST_DATABASE_URL ? 20 : 30 },
    );
  }, 240_000);

  it("GET …/reports/summary and …/reports/campaigns over all time equal the campaigns' aggregates, each donation once", async () => {
    await fc.assert(
      fc.asyncProperty(specArb, async (spec) => {
        const { orgId } = await seed(spec);
        const all = { from: null, to: null };
        const summary = await report(orgId, "summary", all);
        const rows = (await report(orgId, "campaigns", all)).data as Record<string, number | string | null>[];
        const stored = await db.select().from(campaigns).where(eq(campaigns.orgId, orgId));
        const topLevel = stored.filter((c) => c.parentCampaignId === null);
        expect(summary.raisedCents).toBe(sum(topLevel.map((c) => c.raisedAmountCents)));
        expect(summary.count).toBe(sum(topLevel.map((c) => c.donationCount)));
        expect(sum(rows.map((r) => r.raisedCents as number))).toBe(summary.raisedCents);
        for (const c of stored) {
          const row = rows.find((r) => r.campaignId === c.id)!;
          expect(row.raisedIncludingPagesCents).toBe(c.raisedAmountCents);
          expect(row.countIncludingPages).toBe(c.donationCount);
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});

// ---------------------------------------------------------------------------------------------

describe("report windows and buckets", () => {
  const gift = (at: number, amount = 1000, status: Status = "SUCCEEDED") => ({
    campaign: 1,
    donor: 0,
    amount,
    status,
    at,
    createdBefore: 0,
    neverSucceeded: false,
  });
  const base: Spec = { plain: [{ title: "Only", status: "ACTIVE", goal: null }], pages: 0, donors: 2, donations: [], plans: [] };

  it("GET …/reports/summary counts `from` inclusive and `to` exclusive", async () => {
    const t = Date.UTC(2031, 2, 3, 10, 0, 0, 123);
    const { orgId } = await seed({ ...base, donations: [gift(t, 700)] });
    expect((await report(orgId, "summary", { from: t, to: t + 1 })).raisedCents).toBe(700);
    expect((await report(orgId, "summary", { from: t + 1, to: null })).raisedCents).toBe(0);
    expect((await report(orgId, "summary", { from: null, to: t })).raisedCents).toBe(0);
    expect((await report(orgId, "summary", { from: t, to: t })).count).toBe(0);
  });

  it("GET …/reports/summary keeps a bound's microseconds", async () => {
    const { orgId } = await seed(base);
    const [row] = await db
      .select()
      .from(donors)
      .where(sql`${donors.orgId} = ${orgId}`)
      .limit(1);
    const [cmp] = await db
      .select()
      .from(campaigns)
      .where(sql`${campaigns.orgId} = ${orgId} and ${campaigns.parentCampaignId} is null`)
      .limit(1);
    await db.execute(sql`
      insert into donations (id, org_id, campaign_id, donor_id, amount, email, status, created_at, succeeded_at)
      values (${`don_rep${hex()}`}, ${orgId}, ${cmp.id}, ${row.id}, 4200, 'us@example.org', 'SUCCEEDED',
              '2031-03-01 00:00:00.000001+00', '2031-03-01 00:00:00.000001+00')`);
    await db.execute(sql`delete from campaign_daily_totals where org_id = ${orgId}`);
    await setAggregates(orgId);
    const at = async (qs: string) => (await get(`/api/orgs/${orgId}/reports/summary?${qs}`, { token: member.token })).body;
    expect((await at("from=2031-03-01T00:00:00.000001Z")).raisedCents).toBe(4200);
    expect((await at("from=2031-03-01T00:00:00.000002Z")).raisedCents).toBe(0);
    expect((await at("to=2031-03-01T00:00:00.000001Z")).raisedCents).toBe(0);
    expect((await at("to=2031-03-01T00:00:00.000002Z")).raisedCents).toBe(4200);
    expect((await at("from=2031-03-01&to=2031-03-02")).raisedCents).toBe(4200);
    // Offsets are honoured: 01:00+01:00 is midnight UTC.
    expect((await at(`from=${encodeURIComponent("2031-03-01T01:00:00.000002+01:00")}`)).raisedCents).toBe(0);
    const echo = await at("from=2031-03-01T00:00:00.000001Z&to=2031-03-02");
    expect(echo).toMatchObject({ from: "2031-03-01T00:00:00.000001Z", to: "2031-03-02T00:00:00.000Z" });
  });

  it("GET …/reports/timeseries buckets in UTC: days from midnight, weeks from Monday, months from the 1st", async () => {
    // Sunday 2031-03-30 23:59:59.999Z and Monday 2031-03-31 00:00Z; Tuesday 2031-04-01 00:00Z.
    const sunday = Date.UTC(2031, 2, 30, 23, 59, 59, 999);
    const monday = Date.UTC(2031, 2, 31);
    const april = Date.UTC(2031, 3, 1);
    const { orgId } = await seed({ ...base, donations: [gift(sunday, 100), gift(monday, 200), gift(april, 400)] });
    const weeks = await report(orgId, "timeseries", { from: null, to: null }, { interval: "week" });
    expect(weeks.buckets).toEqual([
      { start: "2031-03-24T00:00:00.000Z", date: "2031-03-24", raisedCents: 100, count: 1 },
      { start: "2031-03-31T00:00:00.000Z", date: "2031-03-31", raisedCents: 600, count: 2 },
    ]);
    const months = await report(orgId, "timeseries", { from: null, to: null }, { interval: "month" });
    expect(months.buckets).toEqual([
      { start: "2031-03-01T00:00:00.000Z", date: "2031-03-01", raisedCents: 300, count: 2 },
      { start: "2031-04-01T00:00:00.000Z", date: "2031-04-01", raisedCents: 400, count: 1 },
    ]);
    const days = await report(orgId, "timeseries", { from: Date.UTC(2031, 2, 29), to: Date.UTC(2031, 3, 3) }, { interval: "day" });
    expect(days.buckets.map((b: { raisedCents: number }) => b.raisedCents)).toEqual([0, 100, 200, 400, 0]);
    // Default interval: day.
    expect((await report(orgId, "timeseries", { from: monday, to: april })).interval).toBe("day");

    // The session's time zone changes nothing.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local timezone = 'Pacific/Chatham'`);
      const w = { from: null, to: null };
      expect(await getReportTimeseries(tx as never, orgId, w, "week")).toEqual(weeks.buckets);
      expect(await getReportTimeseries(tx as never, orgId, w, "month")).toEqual(months.buckets);
      expect(await getReportTimeseries(tx as never, orgId, w, "week", { strategy: "scan" })).toEqual(weeks.buckets);
    });
  });

  it("GET …/reports/timeseries days are the organization's: New York's, across the night its clocks go forward", async () => {
    // 8 March 2031, 23:30 EST; 9 March 00:30 EST; 9 March 23:30 EDT (the day had 23 hours); 10 March 00:30 EDT.
    const times = ["2031-03-09T04:30:00Z", "2031-03-09T05:30:00Z", "2031-03-10T03:30:00Z", "2031-03-10T04:30:00Z"].map(Date.parse);
    const { orgId } = await seed({ ...base, timeZone: "America/New_York", donations: times.map((t, i) => gift(t, 100 * (i + 1))) });
    const at = async (qs: string) => (await get(`/api/orgs/${orgId}/reports/timeseries?${qs}`, { token: member.token })).body;
    const days = await at("from=2031-03-08&to=2031-03-11&interval=day");
    // A date alone is New York's midnight.
    expect(days).toMatchObject({ from: "2031-03-08T05:00:00.000Z", to: "2031-03-11T04:00:00.000Z" });
    expect(days.buckets).toEqual([
      { start: "2031-03-08T05:00:00.000Z", date: "2031-03-08", raisedCents: 100, count: 1 },
      { start: "2031-03-09T05:00:00.000Z", date: "2031-03-09", raisedCents: 500, count: 2 },
      { start: "2031-03-10T04:00:00.000Z", date: "2031-03-10", raisedCents: 400, count: 1 },
    ]);
    const summary = async (qs: string) => (await get(`/api/orgs/${orgId}/reports/summary?${qs}`, { token: member.token })).body;
    expect((await summary("from=2031-03-09&to=2031-03-10")).raisedCents).toBe(500);
    // An edge cut inside a day and whole days from the per-day totals add up the same way.
    expect((await summary("from=2031-03-09T05:00:00.001Z&to=2031-03-11")).raisedCents).toBe(900);
    // A change of time zone recounts the per-day totals: in UTC the first two gifts share 9 March.
    const owner = await newUser("Reports owner");
    expect((await get("/api/orgs", { token: owner.token })).status).toBe(200);
    await db.insert(memberships).values({ orgId, userId: owner.sub, role: "OWNER" });
    const changed = await patch(`/api/orgs/${orgId}`, { timeZone: "UTC" }, { token: owner.token });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.timeZone).toBe("UTC");
    expect((await at("from=2031-03-08&to=2031-03-11&interval=day")).buckets.map((b: { raisedCents: number }) => b.raisedCents)).toEqual([
      0, 300, 700,
    ]);
    // (Seeded rows have no receipt numbers; the per-day totals are what is checked here.)
    expect((await findViolations(db, [orgId])).filter((v) => v.kind === "daily_totals")).toEqual([]);
    // A name that is not a time zone is refused next to the field.
    const bad = await patch(`/api/orgs/${orgId}`, { timeZone: "Mars/Olympus_Mons" }, { token: owner.token });
    expectValidation(bad, "timeZone");
  });

  it("GET …/reports/* on an organization with no donations answer zeros and every campaign", async () => {
    const { orgId, data } = await seed({ ...base, pages: 2 });
    const summary = await report(orgId, "summary", { from: null, to: null });
    expect(summary).toMatchObject({
      raisedCents: 0,
      count: 0,
      donors: 0,
      newDonors: 0,
      averageGiftCents: 0,
      refundedCents: 0,
      disputedCount: 0,
    });
    expect((await report(orgId, "timeseries", { from: null, to: null })).buckets).toEqual([]);
    const w = { from: Date.UTC(2031, 0, 1), to: Date.UTC(2031, 0, 4) };
    expect((await report(orgId, "timeseries", w)).buckets).toEqual(
      ["01", "02", "03"].map((d) => ({ start: `2031-01-${d}T00:00:00.000Z`, date: `2031-01-${d}`, raisedCents: 0, count: 0 })),
    );
    const rows = (await report(orgId, "campaigns", w)).data;
    expect(rows).toHaveLength(data.campaigns.length);
    expect(rows.every((r: { raisedCents: number; donors: number }) => r.raisedCents === 0 && r.donors === 0)).toBe(true);
  });

  it("GET …/reports/summary rounds the average gift and the yearly plans' monthly value half up", async () => {
    const { orgId } = await seed({
      ...base,
      donations: [gift(T0, 100), gift(T0 + 1, 101)],
      plans: [
        { amount: 1000, interval: "MONTH", status: "ACTIVE" },
        { amount: 6, interval: "YEAR", status: "ACTIVE" },
        { amount: 99_999, interval: "YEAR", status: "CANCELED" },
      ],
    });
    const s = await report(orgId, "summary", { from: null, to: null });
    expect(s.averageGiftCents).toBe(101); // 100.5
    expect(s.recurringMonthlyValueCents).toBe(1001); // 1000 + 0.5
  });

  it("GET …/reports/timeseries refuses more than 1000 buckets, with or without bounds", async () => {
    const { orgId } = await seed({ ...base, donations: [gift(Date.UTC(2020, 0, 1)), gift(Date.UTC(2024, 0, 1))] });
    const ts = (qs: string) => get(`/api/orgs/${orgId}/reports/timeseries?${qs}`, { token: member.token });
    const tooMany = await ts("from=2000-01-01&to=2010-01-01&interval=day");
    expectValidation(tooMany, "interval");
    expect((await ts("from=2000-01-01&to=2010-01-01&interval=week")).status).toBe(200);
    expect((await ts("from=1000-01-01&to=9999-12-31&interval=month")).status).toBe(400);
    expectValidation(await ts("interval=day"), "interval");
    const weekly = await ts("interval=week");
    expect(weekly.status).toBe(200);
    expect(weekly.body.buckets).toHaveLength(210);
  });
});

// ---------------------------------------------------------------------------------------------

function expectValidation(res: ApiResponse, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ error: "Validation failed", status: 400 });
  expect(res.body.details.fieldErrors[field], JSON.stringify(res.body.details)).toEqual(expect.arrayContaining([expect.any(String)]));
}

describe("report input and access", () => {
  let orgId: string;
  beforeAll(async () => {
    orgId = await bareOrg();
  });

  it.each([
    ["summary", "from=yesterday", "from"],
    ["summary", "to=2031-02-30T00:00:00Z", "to"],
    ["summary", "from=2031-01-01T10:00:00", "from"],
    ["summary", "from=0999-12-31", "from"],
    ["summary", "from=2031-01-02&to=2031-01-01", "to"],
    ["campaigns", "from=2031-01-02T00:00:00.000001Z&to=2031-01-02T00:00:00Z", "to"],
    ["campaigns", "to=soon", "to"],
    ["timeseries", "interval=hour", "interval"],
    ["timeseries", "from=2031-01-02&to=2031-01-01&interval=week", "to"],
  ])("GET …/reports/%s?%s answers 400 on %s", async (kind, qs, field) => {
    expectValidation(await get(`/api/orgs/${orgId}/reports/${kind}?${qs}`, { token: member.token }), field);
  });

  it.each(["summary", "timeseries", "campaigns"])(
    "GET …/reports/%s: 401 without a token, 403 for a non-member, 404 for an unknown organization",
    async (kind) => {
      const path = `/api/orgs/${orgId}/reports/${kind}`;
      expect((await get(path)).body).toEqual({ error: "Unauthorized", status: 401 });
      const outsider = await newUser("Outsider");
      expect((await get(path, { token: outsider.token })).body).toEqual({ error: "Forbidden", status: 403 });
      expect((await get(`/api/orgs/org_nothing${hex()}/reports/${kind}`, { token: outsider.token })).body).toEqual({
        error: "Organization not found",
        status: 404,
      });
      expect((await get(path, { token: member.token })).status).toBe(200);
      expect((await post(path, {}, { token: member.token })).status).toBe(405);
    },
  );
});

// ---------------------------------------------------------------------------------------------

describe("reports after real money movements", () => {
  it("GET …/reports/* agree with the donations moveDonation left: payments, a decline, a refund, a dispute, a renewal", async () => {
    const { owner, org } = await newOrg(undefined, { notificationEmail: "admin@goodfund-test.org" });
    const onboarding = await post(`/api/orgs/${org.id}/processor/onboarding`, undefined, { token: owner.token });
    expect(onboarding.status, onboarding.text).toBe(200);
    const done = await post(`/api/sandbox/accounts/${onboarding.body.processorAccountId}/complete`, undefined, { token: owner.token });
    expect(done.status, done.text).toBeLessThan(300);
    await addMember(org.id, owner.token, member, "MEMBER");

    const parent = await newCampaign(org, owner.token, { title: "Relay", type: "PEER_TO_PEER", status: "ACTIVE" });
    const page = await newCampaign(org, owner.token, { title: "Ada's page", status: "ACTIVE", parentCampaignId: parent.id });
    const plain = await newCampaign(org, owner.token, { title: "General", status: "ACTIVE" });
    const give = async (campaignId: string, amount: number, email: string, card = "4242424242424242", extra = {}) => {
      const created = await post("/api/donations", { campaignId, amount, email, ...extra });
      expect(created.status, created.text).toBe(201);
      const paid = await post("/api/sandbox/payments/confirm", { clientSecret: created.body.clientSecret, cardNumber: card });
      expect(paid.status, paid.text).toBe(200);
      return paid.body as { id: string; paymentIntentId: string; subscriptionId: string | null };
    };
    await give(parent.id, 5000, "ada@example.org");
    await give(page.id, 2500, "ada@example.org");
    await give(page.id, 1200, "bob@example.org");
    await give(plain.id, 3000, "cy@example.org", "4000000000000002");
    const refunded = await give(plain.id, 4000, "cy@example.org");
    const disputed = await give(plain.id, 7000, "dee@example.org");
    const monthly = await give(plain.id, 1500, "eve@example.org", "4242424242424242", { recurringInterval: "MONTH" });
    await give(parent.id, 12_000, "fay@example.org", "4242424242424242", { recurringInterval: "YEAR" });

    const refund = await post(`/api/donations/${refunded.id}/refund`, undefined, { token: owner.token });
    expect(refund.status, refund.text).toBe(200);
    await getSandboxProcessor().sendEvent(
      sandboxEvent("charge.dispute.created", {
        id: `dp_rep${hex()}`,
        object: "dispute",
        amount: 7000,
        currency: "usd",
        reason: "fraudulent",
        status: "needs_response",
        payment_intent: disputed.paymentIntentId,
        evidence_details: { due_by: Math.floor(Date.now() / 1000) + 7 * 86400 },
      }),
    );
    const renewed = await post(`/api/sandbox/subscriptions/${monthly.subscriptionId}/renew`, undefined, { token: owner.token });
    expect(renewed.status, renewed.text).toBeLessThan(300);

    expect(await findViolations(db, [org.id])).toEqual([]);

    // The model, from the rows as they now stand.
    const rows = await db
      .select()
      .from(donations)
      .where(sql`${donations.orgId} = ${org.id}`);
    const plans = await db
      .select()
      .from(recurringPlans)
      .where(sql`${recurringPlans.orgId} = ${org.id}`);
    const stored = await db
      .select()
      .from(campaigns)
      .where(sql`${campaigns.orgId} = ${org.id}`);
    const data: Data = {
      timeZone: "UTC",
      campaigns: stored.map((c) => ({
        id: c.id,
        title: c.title,
        status: c.status,
        type: c.type,
        parentCampaignId: c.parentCampaignId,
        goalAmountCents: c.goalAmountCents,
      })),
      donations: rows.map((r) => ({
        campaignId: r.campaignId,
        donorId: r.donorId,
        amount: r.amount,
        status: r.status,
        createdAt: r.createdAt.getTime(),
        succeededAt: r.succeededAt?.getTime() ?? null,
      })),
      plans: plans.map((p) => ({ amount: p.amount, interval: p.interval, status: p.status })),
    };
    const s = expectedSummary(data, { from: null, to: null });
    expect(s).toMatchObject({ raisedCents: 5000 + 2500 + 1200 + 1500 + 1500 + 12_000, count: 6, refundedCents: 4000, disputedCents: 7000 });
    expect(s.recurringMonthlyValueCents).toBe(1500 + 1000);
    // Millisecond windows around now: the rows' microseconds sit inside them.
    const now = Date.now();
    for (const w of [
      { from: null, to: null },
      { from: now - 3_600_000, to: now + 3_600_000 },
      { from: now + 3_600_000, to: null },
    ]) {
      for (const interval of ["day", "week", "month"] as Interval[]) await checkAll(org.id, data, w, interval);
    }
    const all = await report(org.id, "campaigns", { from: null, to: null });
    const byId = new Map(all.data.map((r: { campaignId: string }) => [r.campaignId, r]));
    for (const c of stored) {
      expect(byId.get(c.id)).toMatchObject({ raisedIncludingPagesCents: c.raisedAmountCents, countIncludingPages: c.donationCount });
    }
  }, 120_000);
});
