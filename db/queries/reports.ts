import { eq, sql, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import { campaigns, organizations } from "@/db/schema";
import { fieldError } from "@/lib/errors";
import {
  MAX_BUCKETS,
  bucketCount,
  firstBucket,
  lastBucket,
  nextBucket,
  splitAtMidnights,
  tooManyBuckets,
  type ReportInterval,
  type ReportWindow,
} from "@/lib/report-window";
import { DEFAULT_TIME_ZONE, instantOfWall } from "@/lib/time-zone";

/*
 * Reports over an organization's donations. The exact meaning of each number is on the response
 * schemas in lib/schemas/reports.ts (and so in the OpenAPI document), which serialize these rows. In short:
 * - The window is `from` (inclusive) to `to` (exclusive) on `succeeded_at`, the time the money came
 *   in; either bound may be absent. Bounds keep their microseconds.
 * - A gift counts when its donation is SUCCEEDED now: raised = sum of `amount`, count, donors =
 *   distinct donors of the counted gifts in the window. Over all time, raised and count are exactly
 *   the sum of the top-level campaigns' `raisedAmountCents`/`donationCount` (a peer-to-peer parent's
 *   include its pages', so pages are not added again).
 * - newDonors: donors whose first counted gift (`donors.first_donation_at`, which moveDonation
 *   keeps equal to the earliest `succeeded_at` of the donor's SUCCEEDED donations) is in the window.
 * - averageGiftCents = raised / count rounded half up (0 without gifts); recurringMonthlyValueCents
 *   = ACTIVE plans now: what they charge in a year / 12 (weekly × 52, monthly × 12, quarterly × 4,
 *     yearly × 1), summed exactly, rounded once, half up.
 * - refunded/disputed: donations now REFUNDED/DISPUTED whose `succeeded_at` (or `created_at` if
 *   it never succeeded) is in the window.
 * - Buckets are days, ISO weeks (Monday) and months of the organization's time zone; a series
 *   lists empty buckets too.
 * - Per campaign: its own gifts, and the same plus its fundraiser pages' (= its aggregates).
 * - One currency: a donation takes its organization's currency, which cannot change once the
 *   organization has any donation (updateOrganization), so the sums never mix currencies and the
 *   answers name the organization's.
 *
 * Two ways to the same numbers:
 * - "aggregates" (the default, what the API uses): whole local days come from `campaign_daily_totals`,
 *   the partial days at the window's edges from the donations (a covering index); distinct and new
 *   donors from the donors' `first_donation_at`/`last_donation_at`. All of these are maintained by
 *   `moveDonation` in the transaction that moves a donation, so they agree with the donations
 *   table at every commit, exactly like the campaigns' own aggregates.
 * - "scan": everything straight from the donations table. The reference the tests compare with and
 *   the baseline scripts/measure-reports.ts times; never needed for correctness.
 * Each report reads in one REPEATABLE READ snapshot, so its parts agree with each other.
 */

export type ReportStrategy = "aggregates" | "scan";
export type ReportOptions = {
  strategy?: ReportStrategy;
  /**
   * How "aggregates" counts distinct donors: from the window's gifts, or from the donors' first
   * and last gift times with a probe for those who gave on both sides of the window. Both are
   * exact; by default the cheaper one is picked (tests force each).
   */
  distinctDonorsFrom?: "gifts" | "donors";
  /**
   * The organization's time zone, where its days, weeks and months start (the per-day totals are
   * kept in it). Looked up when not given.
   */
  timeZone?: string;
};

/** Below this many gifts in the window, counting distinct donors from the gifts is always cheap. */
const FEW_GIFTS = 20_000;
/** One index probe costs about as much as counting this many gifts (the timings: bench/README.md, "Reports"). */
const PROBE_COST_IN_GIFTS = 30;

type Row = Record<string, unknown>;

async function rowsOf<T extends Row>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  // postgres-js answers an array of rows, PGlite `{ rows }`.
  return (Array.isArray(result) ? result : (result as unknown as { rows: T[] }).rows) as T[];
}

/** The organization's time zone (UTC for an unknown organization, which has no gifts anyway). */
async function timeZoneOf(db: DbOrTx, orgId: string, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const [org] = await db.select({ tz: organizations.timeZone }).from(organizations).where(eq(organizations.id, orgId));
  return org?.tz ?? DEFAULT_TIME_ZONE;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/**
 * Runs `fn` in a read-only REPEATABLE READ transaction (or inside the caller's, if given one).
 * Counting distinct donors may sort or hash hundreds of thousands of rows: with the default 4 MB
 * of `work_mem` that spills to disk, so the report's own transaction gets more; and JIT
 * compilation, which large row estimates trigger, costs more than it saves on these queries
 * (bench/README.md, "Reports").
 */
function inSnapshot<T>(db: DbOrTx, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  if ("rollback" in db) return fn(db);
  return (db as Db).transaction(
    async (tx) => {
      await tx.execute(sql`set local work_mem = '64MB'`);
      await tx.execute(sql`set local jit = off`);
      return fn(tx);
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** `col` within [from, to), bounds cast from their canonical text so microseconds are kept. */
function within(col: SQL, w: { from: string | null; to: string | null }): SQL {
  const parts: SQL[] = [];
  if (w.from !== null) parts.push(sql`${col} >= ${w.from}::timestamptz`);
  if (w.to !== null) parts.push(sql`${col} < ${w.to}::timestamptz`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

function daysWithin(d: { from: string | null; to: string | null }): SQL {
  const parts: SQL[] = [];
  if (d.from !== null) parts.push(sql`day >= ${d.from}::date`);
  if (d.to !== null) parts.push(sql`day < ${d.to}::date`);
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

/** The counted gifts of `orgId` (the covering partial index `donations_report_succeeded_idx`). */
const counted = (orgId: string) => sql`donations where org_id = ${orgId} and status = 'SUCCEEDED'`;

/** Grouping keys: one for the whole window, a bucket, or a campaign; for daily totals and for donations. */
type Key = { totals: SQL; donations: SQL };
const WHOLE: Key = { totals: sql`''`, donations: sql`''` };
const BY_CAMPAIGN: Key = { totals: sql`campaign_id`, donations: sql`campaign_id` };
const byBucket = (interval: ReportInterval, tz: string): Key => {
  const unit = sql.raw(`'${interval}'`);
  return {
    totals: sql`to_char(date_trunc(${unit}, day::timestamp), 'YYYY-MM-DD')`,
    donations: sql`to_char(date_trunc(${unit}, succeeded_at at time zone ${tz}::text), 'YYYY-MM-DD')`,
  };
};

/** Raised and count of the counted gifts in the window, per key. */
async function raisedByKey(
  db: DbOrTx,
  orgId: string,
  w: ReportWindow,
  key: Key,
  strategy: ReportStrategy,
  tz: string,
): Promise<Map<string, { raised: number; count: number }>> {
  const parts: SQL[] = [];
  const fromDonations = (piece: { from: string | null; to: string | null }) =>
    sql`select ${key.donations} as k, sum(amount) as raised, count(*) as n from ${counted(orgId)}
        and ${within(sql`succeeded_at`, piece)} group by 1`;
  if (strategy === "scan") {
    parts.push(fromDonations(w));
  } else if (key === WHOLE && w.from === null && w.to === null) {
    // All time, in total: the top-level campaigns' own aggregates (a peer-to-peer parent's
    // include its pages'), a hundred rows instead of every campaign's every day.
    parts.push(sql`select '' as k, sum(raised_amount_cents) as raised, sum(donation_count) as n
                   from campaigns where org_id = ${orgId} and parent_campaign_id is null`);
  } else {
    const split = splitAtMidnights(w, tz);
    if (split.days) {
      parts.push(sql`select ${key.totals} as k, sum(raised_cents) as raised, sum(donation_count) as n
                     from campaign_daily_totals where org_id = ${orgId} and ${daysWithin(split.days)} group by 1`);
    }
    for (const edge of split.edges) parts.push(fromDonations(edge));
  }
  const out = new Map<string, { raised: number; count: number }>();
  if (parts.length === 0) return out;
  const rows = await rowsOf<{ k: string; raised: unknown; n: unknown }>(
    db,
    sql`select k, sum(raised) as raised, sum(n) as n from (${sql.join(parts, sql` union all `)}) parts group by k`,
  );
  for (const r of rows) out.set(r.k, { raised: num(r.raised), count: num(r.n) });
  return out;
}

/** Distinct donors with a counted gift in the window. */
async function distinctDonors(db: DbOrTx, orgId: string, w: ReportWindow, opts: ReportOptions, gifts: number): Promise<number> {
  if (gifts === 0) return 0;
  const bounded = w.from !== null && w.to !== null;
  let from = opts.strategy === "scan" ? "gifts" : opts.distinctDonorsFrom;
  if (from === undefined && gifts <= FEW_GIFTS) from = "gifts";
  if (from === "gifts") {
    // A hashed GROUP BY: `count(distinct …)` always sorts, which is slower here (bench/README.md, "Reports").
    const [r] = await rowsOf<{ n: unknown }>(
      db,
      sql`select count(*) as n from (select donor_id from ${counted(orgId)} and ${within(sql`succeeded_at`, w)}
          group by donor_id) g`,
    );
    return num(r.n);
  }
  // A donor's first/last_donation_at are the earliest/latest `succeeded_at` of their counted
  // gifts. A donor with either inside the window has a gift in it; one whose gifts all fall on one
  // side has none; only a donor with gifts on both sides ("straddling") needs a look at their own
  // gifts. One index-only range scan (`donors_report_window_idx`: donors whose last gift is at or
  // after the window's start) counts the certain ones and the straddling ones; for a window that
  // ends now, the usual one, nobody straddles and that is the answer.
  const window: SQL[] = [
    sql`org_id = ${orgId}`,
    w.from !== null ? sql`last_donation_at >= ${w.from}::timestamptz` : sql`last_donation_at is not null`,
  ];
  if (w.to !== null) window.push(sql`first_donation_at < ${w.to}::timestamptz`);
  const straddles = bounded ? sql`first_donation_at < ${w.from}::timestamptz and last_donation_at >= ${w.to}::timestamptz` : sql`false`;
  const [split] = await rowsOf<{ certain: unknown; straddling: unknown }>(
    db,
    sql`select count(*) filter (where not (${straddles})) as certain, count(*) filter (where ${straddles}) as straddling
        from donors where ${sql.join(window, sql` and `)}`,
  );
  const certain = num(split.certain);
  const straddling = num(split.straddling);
  if (straddling === 0) return certain;
  // Probing each straddler's gifts costs about PROBE_COST_IN_GIFTS gifts' worth of counting.
  if (from === undefined && gifts < PROBE_COST_IN_GIFTS * straddling) {
    return distinctDonors(db, orgId, w, { ...opts, distinctDonorsFrom: "gifts" }, gifts);
  }
  // One index probe on `donations_report_donor_idx` per straddler. (Written as a scalar subquery
  // because Postgres would turn an EXISTS into one hashed subplan over every donor's gifts,
  // scanning that whole index.)
  const [r] = await rowsOf<{ n: unknown }>(
    db,
    sql`select count(*) as n from donors d where ${sql.join(window, sql` and `)} and ${straddles}
        and coalesce((select true from donations x where x.donor_id = d.id and x.status = 'SUCCEEDED'
                      and x.succeeded_at >= ${w.from}::timestamptz and x.succeeded_at < ${w.to}::timestamptz limit 1), false)`,
  );
  return certain + num(r.n);
}

/** Donors whose first counted gift is in the window. */
async function newDonors(db: DbOrTx, orgId: string, w: ReportWindow, strategy: ReportStrategy): Promise<number> {
  const query =
    strategy === "scan"
      ? sql`select count(*) as n from (select min(succeeded_at) as first from ${counted(orgId)} group by donor_id) f
            where ${within(sql`f.first`, w)}`
      : sql`select count(*) as n from donors where org_id = ${orgId} and first_donation_at is not null
            and ${within(sql`first_donation_at`, w)}`;
  const [r] = await rowsOf<{ n: unknown }>(db, query);
  return num(r.n);
}

/**
 * What recurring plans charge in a year (a gift per cycle times its cycles a year: 52 weekly, 12
 * monthly, 4 quarterly, 1 yearly), summed exactly in SQL: twelfths of it are monthly recurring revenue.
 */
export const yearlyRecurringSql = sql`coalesce(sum(amount::bigint * case interval when 'WEEK' then 52 when 'MONTH' then 12 when 'QUARTER' then 4 else 1 end), 0)`;

/** round(a / b), halves up, for non-negative integers; exact whatever their size. */
export function roundedQuotient(a: number, b: number): number {
  if (b === 0) return 0;
  return Number((2n * BigInt(a) + BigInt(b)) / (2n * BigInt(b)));
}

export type ReportSummaryNumbers = {
  raisedCents: number;
  count: number;
  donors: number;
  newDonors: number;
  averageGiftCents: number;
  recurringMonthlyValueCents: number;
  refundedCents: number;
  refundedCount: number;
  disputedCents: number;
  disputedCount: number;
};

/** The summary of `orgId`'s donations in the window (see `reportSummarySchema` for each number). */
export async function getReportSummary(
  db: DbOrTx,
  orgId: string,
  w: ReportWindow,
  opts: ReportOptions = {},
): Promise<ReportSummaryNumbers> {
  const strategy = opts.strategy ?? "aggregates";
  // Over all time every donor's first counted gift is in the window: new donors = donors.
  const allTime = strategy === "aggregates" && w.from === null && w.to === null;
  const tz = await timeZoneOf(db, orgId, opts.timeZone);
  return inSnapshot(db, async (tx) => {
    const [totals, fresh, plans, reversed] = await Promise.all([
      raisedByKey(tx, orgId, w, WHOLE, strategy, tz),
      allTime ? Promise.resolve(0) : newDonors(tx, orgId, w, strategy),
      rowsOf<{ yearly: unknown }>(
        tx,
        sql`select ${yearlyRecurringSql} as yearly from recurring_plans where org_id = ${orgId} and status = 'ACTIVE'`,
      ),
      // Refunds and disputes count where the money came in; a never-succeeded one at its creation.
      rowsOf<{ status: string; cents: unknown; n: unknown }>(
        tx,
        sql`select status, sum(amount) as cents, count(*) as n from donations
            where org_id = ${orgId} and status in ('REFUNDED', 'DISPUTED')
            and ${within(sql`coalesce(succeeded_at, created_at)`, w)} group by status`,
      ),
    ]);
    const { raised, count } = totals.get("") ?? { raised: 0, count: 0 };
    const donors = await distinctDonors(tx, orgId, w, { ...opts, strategy }, count);
    const byStatus = (s: string) => reversed.find((r) => r.status === s);
    return {
      raisedCents: raised,
      count,
      donors,
      newDonors: allTime ? donors : fresh,
      averageGiftCents: roundedQuotient(raised, count),
      // A twelfth of what the active plans charge in a year, rounded once, in total.
      recurringMonthlyValueCents: roundedQuotient(num(plans[0]?.yearly), 12),
      refundedCents: num(byStatus("REFUNDED")?.cents),
      refundedCount: num(byStatus("REFUNDED")?.n),
      disputedCents: num(byStatus("DISPUTED")?.cents),
      disputedCount: num(byStatus("DISPUTED")?.n),
    };
  });
}

/**
 * Raised and count per bucket of the organization's time zone, consecutive, empty buckets included (see
 * `reportTimeseriesSchema`). Throws a 400 on `interval` when the series would have more than
 * MAX_BUCKETS buckets (the schema already refuses such windows when both bounds are given).
 */
export async function getReportTimeseries(
  db: DbOrTx,
  orgId: string,
  w: ReportWindow,
  interval: ReportInterval,
  opts: ReportOptions = {},
): Promise<{ start: string; date: string; raisedCents: number; count: number }[]> {
  if (w.from !== null && w.from === w.to) return [];
  const strategy = opts.strategy ?? "aggregates";
  const tz = await timeZoneOf(db, orgId, opts.timeZone);
  const found = await inSnapshot(db, (tx) => raisedByKey(tx, orgId, w, byBucket(interval, tz), strategy, tz));
  // Keys are bucket starts' local dates, `YYYY-MM-DD`, read as wall milliseconds; an unbounded
  // side ends at the outermost bucket with a gift.
  const withGifts = [...found].filter(([, v]) => v.count > 0).map(([k]) => Date.parse(`${k}T00:00:00Z`));
  const first = w.from !== null ? firstBucket(w.from, interval, tz) : Math.min(...withGifts);
  const last = w.to !== null ? lastBucket(w.to, interval, tz) : Math.max(...withGifts);
  if (!Number.isFinite(first) || !Number.isFinite(last)) return [];
  const n = bucketCount(first, last, interval);
  if (n > MAX_BUCKETS) throw fieldError("interval", tooManyBuckets(n, interval), "too_many_buckets", { maximum: MAX_BUCKETS, buckets: n });
  const out: { start: string; date: string; raisedCents: number; count: number }[] = [];
  for (let start = first; start <= last; start = nextBucket(start, interval)) {
    const date = new Date(start).toISOString().slice(0, 10);
    const v = found.get(date);
    out.push({ start: new Date(instantOfWall(tz, start)).toISOString(), date, raisedCents: v?.raised ?? 0, count: v?.count ?? 0 });
  }
  return out;
}

/**
 * Every campaign of `orgId` with its own raised, count and distinct donors in the window, and
 * the same including its fundraiser pages (see `campaignReportRowSchema`); highest raised first.
 */
export async function getCampaignReport(db: DbOrTx, orgId: string, w: ReportWindow, opts: ReportOptions = {}) {
  const strategy = opts.strategy ?? "aggregates";
  const tz = await timeZoneOf(db, orgId, opts.timeZone);
  const [list, sums, donorRows] = await inSnapshot(db, (tx) =>
    Promise.all([
      tx
        .select({
          campaignId: campaigns.id,
          title: campaigns.title,
          status: campaigns.status,
          type: campaigns.type,
          parentCampaignId: campaigns.parentCampaignId,
          goalAmountCents: campaigns.goalAmountCents,
        })
        .from(campaigns)
        .where(eq(campaigns.orgId, orgId)),
      raisedByKey(tx, orgId, w, BY_CAMPAIGN, strategy, tz),
      rowsOf<{ campaign_id: string; n: unknown }>(
        tx,
        sql`select campaign_id, count(distinct donor_id) as n from ${counted(orgId)}
            and ${within(sql`succeeded_at`, w)} group by campaign_id`,
      ),
    ]),
  );
  const donorsOf = new Map(donorRows.map((r) => [r.campaign_id, num(r.n)]));
  const rows = list.map((c) => {
    const own = sums.get(c.campaignId) ?? { raised: 0, count: 0 };
    return {
      ...c,
      raisedCents: own.raised,
      count: own.count,
      donors: donorsOf.get(c.campaignId) ?? 0,
      raisedIncludingPagesCents: own.raised,
      countIncludingPages: own.count,
    };
  });
  // A fundraiser page's gifts also count for its parent, as `moveDonation` adds them there.
  const byId = new Map(rows.map((r) => [r.campaignId, r]));
  for (const page of rows) {
    const parent = page.parentCampaignId ? byId.get(page.parentCampaignId) : undefined;
    if (!parent) continue;
    parent.raisedIncludingPagesCents += page.raisedCents;
    parent.countIncludingPages += page.count;
  }
  return rows.sort(
    (a, b) =>
      b.raisedCents - a.raisedCents ||
      (a.title < b.title ? -1 : a.title > b.title ? 1 : 0) ||
      (a.campaignId < b.campaignId ? -1 : a.campaignId > b.campaignId ? 1 : 0),
  );
}
