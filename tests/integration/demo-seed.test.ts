import { and, count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { campaigns, donations, donors, organizations, outbox, recurringPlans } from "@/db/schema";
import { issueSessionToken } from "@/lib/services/sessions/session-token";
import { DEMO_OWNER } from "@/lib/auth/demo-owner";
import { lastGivingTuesday, planDemoHistory, type PlannedGift } from "@/lib/demo/history-plan";
import { demoCampaigns, seedDemoIfEmpty, seedDemoOrganization } from "@/lib/demo/seed";
import { get, uniqueSlug } from "../helpers/api";
import { testDb } from "../helpers/db";
import { findViolations } from "../helpers/invariants";

// The first-run demo: its organization and campaigns, and a year of history played through the
// payment services (createDonation, then the processor events applyProcessorEvent applies). One
// seed for the file at the product's default volume (DEMO_HISTORY_SCALE, half the full plan),
// under a slug of its own: the first-run seed proper (seedDemoIfEmpty) only seeds a database
// without organizations. The history ends today, so the bounds below hold for any date: each was
// checked against the plan (planDemoHistory) for every third day of two years, with a margin.

const NOW = new Date();
const SCALE = 0.5;
let org: typeof organizations.$inferSelect;
let token: string;

const rows = async <T>(q: ReturnType<typeof sql>) => {
  const r = await (await testDb()).execute(q);
  return (Array.isArray(r) ? r : (r as unknown as { rows: T[] }).rows) as T[];
};

/** What the database holds of an organization's gifts, in a form that does not depend on IDs. */
async function fingerprint(orgId: string) {
  const got = await rows<{ line: string }>(sql`
    select c.slug || ' ' || d.email || ' ' || d.amount || ' ' || d.status || ' ' || d.is_renewal || ' ' ||
           coalesce(to_char(d.succeeded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), '-') as line
    from donations d join campaigns c on c.id = d.campaign_id where d.org_id = ${orgId} order by line`);
  return got.map((r) => r.line);
}

const counted = (orgId: string) =>
  rows<{ n: string; raised: string }>(
    sql`select count(*) as n, coalesce(sum(amount), 0) as raised from donations where org_id = ${orgId} and status = 'SUCCEEDED'`,
  ).then(([r]) => ({ n: Number(r.n), raised: Number(r.raised) }));

beforeAll(async () => {
  const db = await testDb();
  const slug = uniqueSlug("demo");
  const played = await seedDemoOrganization(db, { slug, now: NOW, scale: SCALE });
  expect(played).toBeGreaterThan(1_100);
  [org] = await db.select().from(organizations).where(eq(organizations.slug, slug));
  token = await issueSessionToken({ sub: DEMO_OWNER.id, email: DEMO_OWNER.email, name: DEMO_OWNER.name });
}, 1_200_000);

describe("the demo seed's campaigns", () => {
  it("GET /api/orgs/:idOrSlug/campaigns lists each with its story, the demo's ones with their /covers/ image", async () => {
    const res = await get(`/api/orgs/${org.slug}/campaigns?limit=100`, { token });
    expect(res.status, res.text).toBe(200);
    const list = res.body.data as { slug: string; status: string; coverImageUrl: string | null; description: string }[];
    const own = demoCampaigns(org.id, NOW.getTime()).map((c) => c.slug);
    expect(own).toEqual(["winter-meals", "run-for-riverside", "maya-runs", "harvest-gala", "friends", "spring-garden"]);
    expect(list.map((c) => c.slug).sort()).toEqual(
      [...own, "coach-luis", "daniel-runs", "okafor-family", "priya-runs", "rotary-team"].sort(),
    );
    for (const c of list) {
      if (own.includes(c.slug)) expect(c.coverImageUrl, c.slug).toBe(`/covers/${c.slug}.svg`);
      expect(c.description.length, c.slug).toBeGreaterThan(80);
    }
    expect(list.find((c) => c.slug === "spring-garden")!.status).toBe("DRAFT");
  });

  it("GET /api/public/orgs/:orgSlug/campaigns/:slug serves a published one's cover, and not the draft", async () => {
    const res = await get(`/api/public/orgs/${org.slug}/campaigns/winter-meals`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.campaign.coverImageUrl).toBe("/covers/winter-meals.svg");
    expect(res.body.campaign.description).toMatch(/^Every \$25 puts a week of hot meals on a neighbour's table this winter\./);
    expect((await get(`/api/public/orgs/${org.slug}/campaigns/spring-garden`)).status).toBe(404);
  });
});

describe("the demo's year of history", () => {
  it("every aggregate agrees with the donations (tests/helpers/invariants.ts)", async () => {
    expect(await findViolations(await testDb(), [org.id])).toEqual([]);
  });

  it("more than a thousand gifts over the year before now, from named donors at example addresses, many giving again", async () => {
    const { n } = await counted(org.id);
    expect(n).toBeGreaterThanOrEqual(1_100);
    expect(n).toBeLessThanOrEqual(2_000);
    const [span] = await rows<{ first: Date | string; last: Date | string }>(
      sql`select min(succeeded_at) as first, max(succeeded_at) as last from donations where org_id = ${org.id}`,
    );
    expect(NOW.getTime() - new Date(span.first).getTime()).toBeGreaterThan(360 * 86_400_000);
    expect(new Date(span.last).getTime()).toBeLessThanOrEqual(NOW.getTime());
    expect(NOW.getTime() - new Date(span.last).getTime()).toBeLessThan(2 * 86_400_000);

    const db = await testDb();
    const people = await db.select().from(donors).where(eq(donors.orgId, org.id));
    expect(people.length).toBeGreaterThan(600);
    expect(people.every((d) => /@example\.(org|com)$/.test(d.email ?? "") && d.firstName && d.lastName)).toBe(true);
    expect(people.filter((d) => d.donationCount >= 2).length).toBeGreaterThan(200);
  });

  it("amounts: mostly $25 to $100, a long tail, and a few major gifts", async () => {
    const [a] = await rows<{ mode: number; median: number; p95: number; majors: string; max: number }>(sql`
      select mode() within group (order by amount) as mode,
             percentile_disc(0.5) within group (order by amount) as median,
             percentile_disc(0.95) within group (order by amount) as p95,
             count(*) filter (where amount >= 200000) as majors, max(amount) as max
      from donations where org_id = ${org.id} and status = 'SUCCEEDED' and tickets is null`);
    expect(Number(a.mode)).toBeGreaterThanOrEqual(2_500);
    expect(Number(a.mode)).toBeLessThanOrEqual(10_000);
    expect(Number(a.median)).toBeGreaterThanOrEqual(2_500);
    expect(Number(a.median)).toBeLessThanOrEqual(10_000);
    expect(Number(a.p95)).toBeGreaterThan(15_000);
    expect(Number(a.majors)).toBeGreaterThanOrEqual(3);
    expect(Number(a.majors)).toBeLessThanOrEqual(10);
    expect(Number(a.max)).toBeGreaterThanOrEqual(1_000_000);
  });

  it("Giving Tuesday is the busiest day; December outgives July (the reports' monthly series)", async () => {
    const days = await rows<{ day: string; n: string }>(sql`
      select to_char((succeeded_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, count(*) as n from donations
      where org_id = ${org.id} and succeeded_at is not null group by 1 order by 2 desc limit 2`);
    expect(days[0].day).toBe(lastGivingTuesday(NOW).toISOString().slice(0, 10));
    expect(Number(days[0].n)).toBeGreaterThan(Number(days[1].n) * 1.5);

    const res = await get(`/api/orgs/${org.slug}/reports/timeseries?interval=month`, { token });
    expect(res.status, res.text).toBe(200);
    const months = res.body.buckets as { start: string; raisedCents: number; count: number }[];
    expect(months.length).toBeGreaterThanOrEqual(12);
    const month = (m: number) => months.filter((b) => new Date(b.start).getUTCMonth() === m);
    const december = month(11).reduce((s, b) => s + b.count, 0);
    const july = month(6).reduce((s, b) => s + b.count, 0);
    expect(december).toBeGreaterThan(july * 2);
    expect(months.reduce((s, b) => s + b.count, 0)).toBe((await counted(org.id)).n);

    const summary = await get(`/api/orgs/${org.slug}/reports/summary`, { token });
    expect(summary.status, summary.text).toBe(200);
    expect(summary.body.raisedCents).toBe((await counted(org.id)).raised);
    expect(summary.body.recurringMonthlyValueCents).toBeGreaterThan(0);
    expect(summary.body.refundedCount).toBeGreaterThanOrEqual(5);
  });

  it("monthly donors and members renew every month; a few plans were canceled", async () => {
    const db = await testDb();
    const [renewals] = await db
      .select({ n: count() })
      .from(donations)
      .where(and(eq(donations.orgId, org.id), eq(donations.isRenewal, true), eq(donations.status, "SUCCEEDED")));
    expect(renewals.n).toBeGreaterThan(50);
    const plans = await db.select().from(recurringPlans).where(eq(recurringPlans.orgId, org.id));
    expect(plans.filter((p) => p.status === "ACTIVE").length).toBeGreaterThan(15);
    const canceled = plans.filter((p) => p.status === "CANCELED");
    expect(canceled.length).toBeGreaterThan(0);
    expect(canceled.every((p) => p.canceledAt && p.canceledAt < NOW && p.canceledAt > p.createdAt)).toBe(true);
    // A plan's renewals are a month apart, on its first gift's day of the month (or the month's last day).
    const [longest] = await rows<{ times: string[] }>(sql`
      select array_agg(to_char(succeeded_at at time zone 'UTC', 'YYYY-MM-DD') order by succeeded_at) as times
      from donations where org_id = ${org.id} and recurring_interval = 'MONTH' and recurring_plan_id is not null
      group by recurring_plan_id order by count(*) desc limit 1`);
    const times = typeof longest.times === "string" ? (longest.times as string).replace(/[{}]/g, "").split(",") : longest.times;
    expect(times.length).toBeGreaterThanOrEqual(8);
    for (let i = 1; i < times.length; i++) {
      const gap = (Date.parse(times[i]) - Date.parse(times[i - 1])) / 86_400_000;
      expect(gap).toBeGreaterThanOrEqual(28);
      expect(gap).toBeLessThanOrEqual(31);
    }
  });

  it("a few refunds and one dispute, lost", async () => {
    const refunded = await rows<{ id: string; disputed: boolean }>(sql`
      select d.id, exists (select 1 from donation_events e where e.donation_id = d.id and e.type = 'charge.dispute.created') as disputed
      from donations d where d.org_id = ${org.id} and d.status = 'REFUNDED'`);
    expect(refunded.length).toBeGreaterThanOrEqual(5);
    expect(refunded.length).toBeLessThanOrEqual(10);
    const disputes = refunded.filter((r) => r.disputed);
    expect(disputes).toHaveLength(1);
    const timeline = await get(`/api/donations/${disputes[0].id}`, { token });
    expect(timeline.status, timeline.text).toBe(200);
    const types = (timeline.body.timeline as { type: string }[]).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["charge.dispute.created", "charge.dispute.closed"]));
  });

  it("the 5K: fundraiser pages with a leaderboard, their gifts counted in the parent", async () => {
    const res = await get(`/api/public/orgs/${org.slug}/campaigns/run-for-riverside`);
    expect(res.status, res.text).toBe(200);
    const board = res.body.leaderboard as { slug?: string; title: string; raisedAmountCents: number }[];
    expect(board.length).toBe(6);
    expect(board.every((p) => p.raisedAmountCents > 0)).toBe(true);
    const raised = board.map((p) => p.raisedAmountCents);
    expect(raised).toEqual([...raised].sort((a, b) => b - a));
    const pages = await (await testDb()).select().from(campaigns).where(eq(campaigns.orgId, org.id));
    const parent = pages.find((c) => c.slug === "run-for-riverside")!;
    const children = pages.filter((c) => c.parentCampaignId === parent.id);
    expect(parent.raisedAmountCents).toBeGreaterThan(children.reduce((s, c) => s + c.raisedAmountCents, 0));
    expect(children.reduce((s, c) => s + c.donationCount, 0)).toBeGreaterThan(30);
  });

  it("gala tickets sold, under capacity; the sponsor's match well along, not over its cap", async () => {
    const list = await (await testDb()).select().from(campaigns).where(eq(campaigns.orgId, org.id));
    const gala = list.find((c) => c.slug === "harvest-gala")!;
    expect(gala.ticketsSold).toBeGreaterThan(40);
    expect(gala.ticketsSold).toBeLessThanOrEqual(gala.ticketCapacity!);
    const winter = list.find((c) => c.slug === "winter-meals")!;
    expect(winter.matchingEnabled).toBe(true);
    expect(winter.matchedAmountCents).toBeLessThan(winter.matchingMaxCents!);
    expect(winter.matchedAmountCents).toBeGreaterThanOrEqual(winter.matchingMaxCents! * 0.7);
    expect(winter.raisedAmountCents).toBeLessThan(winter.goalAmountCents!);
    expect(winter.raisedAmountCents).toBeGreaterThan(winter.goalAmountCents! * 0.3);
  });

  it("sends nothing: the history's emails are done (dated with their gifts), none waits for the worker", async () => {
    const db = await testDb();
    const mail = await db.select().from(outbox).where(eq(outbox.orgId, org.id));
    expect(mail.length).toBeGreaterThan(1_000);
    expect(mail.filter((m) => m.status !== "SENT")).toEqual([]);
    expect(mail.filter((m) => m.kind !== "email")).toEqual([]);
    const old = mail.filter((m) => m.sentAt! < new Date(NOW.getTime() - 180 * 86_400_000));
    expect(old.length).toBeGreaterThan(250);
  });
});

describe("exactly once, and the same every time", () => {
  it("a second run (a restart, or a second instance) adds nothing", async () => {
    const db = await testDb();
    const before = await counted(org.id);
    expect(await seedDemoOrganization(db, { slug: org.slug, now: NOW, scale: SCALE })).toBe(0);
    expect(await seedDemoOrganization(db, { slug: org.slug })).toBe(0);
    // The first-run seed leaves a database that has organizations alone.
    expect(await seedDemoIfEmpty(db)).toBeNull();
    expect(await counted(org.id)).toEqual(before);
  });

  it("the plan is deterministic, and the database holds exactly the plan", async () => {
    const plan = planDemoHistory(NOW, SCALE);
    expect(planDemoHistory(new Date(NOW), SCALE)).toEqual(plan);
    const gifts = plan.filter((s): s is PlannedGift => s.kind === "gift");
    const db = await testDb();
    const [{ n }] = await db.select({ n: count() }).from(donations).where(eq(donations.orgId, org.id));
    expect(n).toBe(gifts.length + plan.filter((s) => s.kind === "renewal").length);
    const emails = new Set((await db.select({ email: donors.email }).from(donors).where(eq(donors.orgId, org.id))).map((d) => d.email));
    expect(emails).toEqual(new Set(gifts.map((g) => g.donor.email)));
    const raised = gifts.reduce((s, g) => s + g.amount, 0);
    const [all] = await rows<{ total: string }>(
      sql`select sum(amount) as total from donations where org_id = ${org.id} and not is_renewal`,
    );
    expect(Number(all.total)).toBe(raised);
  });

  it("a seed stopped mid-way (a crash) is finished by the next run, with the same result as one uninterrupted run", async () => {
    const db = await testDb();
    const at = new Date(NOW.getTime() - 3 * 86_400_000);
    const [whole, broken] = [uniqueSlug("demo"), uniqueSlug("demo")];
    await seedDemoOrganization(db, { slug: whole, now: at, scale: 0.04 });
    await expect(
      seedDemoOrganization(db, {
        slug: broken,
        now: at,
        scale: 0.04,
        afterChunk: (n) => {
          if (n === 1) throw new Error("crash");
        },
      }),
    ).rejects.toThrow("crash");
    const [b] = await db.select().from(organizations).where(eq(organizations.slug, broken));
    const half = await counted(b.id);
    expect(half.n).toBeGreaterThan(0);
    expect(await findViolations(db, [b.id])).toEqual([]);
    // The next start: a later `now` changes nothing, the history ends where it was planned to.
    expect(await seedDemoOrganization(db, { slug: broken, scale: 0.04 })).toBeGreaterThan(0);
    const [w] = await db.select().from(organizations).where(eq(organizations.slug, whole));
    expect(await fingerprint(b.id)).toEqual(await fingerprint(w.id));
    expect((await counted(b.id)).n).toBeGreaterThan(half.n);
    expect(await findViolations(db, [b.id, w.id])).toEqual([]);
  }, 600_000);

  it("lets the process take other work between its chunks (the embedded database answers without I/O): a timer runs while it plays", async () => {
    const db = await testDb();
    // A timer due at once runs at the event loop's next turn: counted at each chunk's end, the
    // turns the seed gave. Chained promises alone (every query of the embedded database) give none.
    let turns = 0;
    const timer = setInterval(() => (turns += 1), 0);
    const seen: number[] = [];
    try {
      await seedDemoOrganization(db, { slug: uniqueSlug("demo"), scale: 0.04, afterChunk: () => void seen.push(turns) });
    } finally {
      clearInterval(timer);
    }
    expect(seen.length).toBeGreaterThan(3);
    // After the first chunks, each chunk ends after a turn in which the timer ran. (The first
    // turn given may come back within the loop's turn the seed started in, before any timer.)
    for (let n = 2; n < seen.length; n++) expect(seen[n], `chunk ${n}`).toBeGreaterThan(seen[n - 1]);
  }, 600_000);
});
