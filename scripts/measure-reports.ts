// `npx tsx scripts/measure-reports.ts [--runs 20] [--donations 1000000] [--skip-baseline] [--keep]`:
// how fast the reports are at a million donations in one organization, on real Postgres.
//
// Creates a scratch database on ADMIN_DATABASE_URL's server (default
// postgres://postgres@127.0.0.1:5432/postgres), migrates it, inserts one organization with 50
// campaigns (one peer-to-peer parent with 5 fundraiser pages), 10 000 donors, 2 000 recurring
// plans and N donations (one INSERT … SELECT generate_series; 85 % SUCCEEDED, 7 % FAILED,
// 3 % PENDING, 3 % REFUNDED, 2 % DISPUTED; succeeded over the last two years), sets every
// aggregate from them the way moveDonation would have, VACUUM ANALYZEs, and times each report
// through the query functions of db/queries/reports.ts: the median of `runs` runs after warm-up,
// three ways:
//   aggregates  what the API runs: per-day totals + the report indexes
//   scan+idx    everything from the donations table, with the report indexes
//   scan        everything from the donations table, without them (the schema before reports)
// It checks that both strategies answer the same numbers, prints a table, and drops the database
// (unless --keep). --skip-baseline times only what the API runs (minutes instead of a quarter hour).
import { randomBytes } from "node:crypto";
import os from "node:os";
import postgres from "postgres";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = option("runs", 20);
const WARMUP = 3;
const DONATIONS = option("donations", 1_000_000);
const KEEP = args.includes("--keep");
const SKIP_BASELINE = args.includes("--skip-baseline");
const ADMIN_URL = process.env.ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `gf_measure_${randomBytes(4).toString("hex")}`;
const DATABASE_URL = (() => {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB_NAME}`;
  return u.toString();
})();
const ORG = "org_measure";
const REPORT_INDEXES = [
  "donations_report_succeeded_idx",
  "donations_report_reversed_idx",
  "donations_report_campaign_donor_idx",
  "donations_report_donor_idx",
  "donors_report_first_donation_idx",
];

const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });

async function seed(sql: postgres.Sql) {
  await sql`select setseed(0.42)`;
  await sql`insert into organizations (id, name, slug, status) values (${ORG}, 'Measure', 'measure', 'ACTIVE')`;
  await sql`insert into campaigns (id, org_id, title, slug, type, status, goal_amount_cents)
            select 'cmp_m' || lpad(i::text, 2, '0'), ${ORG}, 'Campaign ' || i, 'c-' || i,
                   (case when i = 0 then 'PEER_TO_PEER' else 'DONATION' end)::campaign_type, 'ACTIVE', 1000000 * (1 + i % 7)
            from generate_series(0, 49) i`;
  await sql`update campaigns set parent_campaign_id = 'cmp_m00' where org_id = ${ORG} and id between 'cmp_m01' and 'cmp_m05'`;
  await sql`insert into donors (id, org_id, email) select 'dnr_m' || i, ${ORG}, 'donor' || i || '@example.org' from generate_series(1, 10000) i`;
  await sql`
    insert into donations (id, org_id, campaign_id, donor_id, amount, email, status, created_at, updated_at, succeeded_at, is_renewal)
    select 'don_m' || i, ${ORG}, 'cmp_m' || lpad(c::text, 2, '0'), 'dnr_m' || d, amount, 'donor' || d || '@example.org',
           status::donation_status, t - interval '2 minutes', t,
           case when status in ('SUCCEEDED', 'REFUNDED', 'DISPUTED') then t end, i % 7 = 0
    from (
      select i, floor(50 * r1 * r1)::int as c, 1 + floor(10000 * r2)::int as d, (500 + floor(r3 * r3 * 50000))::int as amount,
             case when r < 0.85 then 'SUCCEEDED' when r < 0.92 then 'FAILED' when r < 0.95 then 'PENDING'
                  when r < 0.98 then 'REFUNDED' else 'DISPUTED' end as status,
             now() - r4 * interval '730 days' as t
      from (select i, random() as r, random() as r1, random() as r2, random() as r3, random() as r4
            from generate_series(1, ${DONATIONS}::int) i) s
    ) g`;
  await sql`
    insert into recurring_plans (id, org_id, campaign_id, donor_id, subscription_id, amount, currency, interval, status)
    select 'rp_m' || i, ${ORG}, 'cmp_m' || lpad((i % 50)::text, 2, '0'), 'dnr_m' || (1 + i % 10000), 'sub_m' || i,
           1000 + (i * 37) % 20000, 'usd', (case when i % 5 = 0 then 'YEAR' else 'MONTH' end)::recurring_interval,
           (case when i % 10 < 7 then 'ACTIVE' when i % 10 < 9 then 'CANCELED' else 'PAST_DUE' end)::recurring_plan_status
    from generate_series(1, 2000) i`;
  // Every aggregate as moveDonation would have left it.
  await sql`
    update campaigns c set raised_amount_cents = x.raised, donation_count = x.n
    from (select campaign_id, sum(amount) as raised, count(*) as n from donations
          where org_id = ${ORG} and status = 'SUCCEEDED' group by 1) x
    where c.id = x.campaign_id`;
  await sql`
    update campaigns p set raised_amount_cents = p.raised_amount_cents + x.raised, donation_count = p.donation_count + x.n
    from (select parent_campaign_id as id, sum(raised_amount_cents) as raised, sum(donation_count) as n
          from campaigns where org_id = ${ORG} and parent_campaign_id is not null group by 1) x
    where p.id = x.id`;
  await sql`
    update donors o set total_given_cents = x.total, donation_count = x.n, first_donation_at = x.first, last_donation_at = x.last
    from (select donor_id, sum(amount) as total, count(*) as n, min(succeeded_at) as first, max(succeeded_at) as last
          from donations where org_id = ${ORG} and status = 'SUCCEEDED' group by 1) x
    where o.id = x.donor_id`;
  await sql`
    insert into campaign_daily_totals (org_id, campaign_id, day, raised_cents, donation_count)
    select org_id, campaign_id, (succeeded_at at time zone 'UTC')::date, sum(amount), count(*)
    from donations where org_id = ${ORG} and status = 'SUCCEEDED' group by 1, 2, 3`;
  await sql.unsafe("vacuum analyze");
}

type Case = { name: string; run: (strategy: "aggregates" | "scan") => Promise<unknown> };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function time(c: Case, strategy: "aggregates" | "scan"): Promise<{ ms: number; result: unknown }> {
  let result: unknown;
  for (let i = 0; i < WARMUP; i++) result = await c.run(strategy);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await c.run(strategy);
    times.push(performance.now() - t);
  }
  return { ms: median(times), result };
}

async function main() {
  await admin.unsafe(`create database ${DB_NAME}`);
  process.env.DATABASE_URL = DATABASE_URL;
  process.env.NEXTAUTH_SECRET ??= "measure-reports-only-0123456789abcdef";
  process.env.LOG_LEVEL ??= "silent";
  const { runMigrations } = await import("@/db/migrate");
  const { getDb, closeDb } = await import("@/db");
  const reports = await import("@/db/queries/reports");
  const direct = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    await runMigrations();
    const t = performance.now();
    await seed(direct);
    const [{ n }] = await direct`select count(*)::int as n from donations`;
    console.log(`${DB_NAME}: ${n} donations seeded in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const db = await getDb();
    const now = Date.now();
    const day = 86_400_000;
    const midnight = (ms: number) => new Date(Math.floor(ms / day) * day).toISOString();
    const w = (from: string | null, to: string | null) => ({ from, to });
    const all = w(null, null);
    const year = w(midnight(now - 365 * day), midnight(now));
    const month = w(midnight(now - 30 * day), midnight(now));
    const oneDay = w(midnight(now - 100 * day), midnight(now - 99 * day));
    const monthAgo = w(midnight(now - 400 * day), midnight(now - 370 * day));
    const ragged = w(new Date(now - 400 * day + 13_579_000).toISOString(), new Date(now - 35 * day - 4_321_000).toISOString());
    const cases: Case[] = [
      { name: "summary, all time", run: (s) => reports.getReportSummary(db, ORG, all, { strategy: s }) },
      { name: "summary, 365 whole days", run: (s) => reports.getReportSummary(db, ORG, year, { strategy: s }) },
      { name: "summary, 30 whole days", run: (s) => reports.getReportSummary(db, ORG, month, { strategy: s }) },
      { name: "summary, 30 days, a year ago", run: (s) => reports.getReportSummary(db, ORG, monthAgo, { strategy: s }) },
      { name: "summary, one day", run: (s) => reports.getReportSummary(db, ORG, oneDay, { strategy: s }) },
      { name: "summary, 365 days, ragged bounds", run: (s) => reports.getReportSummary(db, ORG, ragged, { strategy: s }) },
      { name: "timeseries, all time by day", run: (s) => reports.getReportTimeseries(db, ORG, all, "day", { strategy: s }) },
      { name: "timeseries, all time by week", run: (s) => reports.getReportTimeseries(db, ORG, all, "week", { strategy: s }) },
      { name: "timeseries, 365 days by month", run: (s) => reports.getReportTimeseries(db, ORG, year, "month", { strategy: s }) },
      { name: "campaigns, all time", run: (s) => reports.getCampaignReport(db, ORG, all, { strategy: s }) },
      { name: "campaigns, 30 whole days", run: (s) => reports.getCampaignReport(db, ORG, month, { strategy: s }) },
      { name: "campaigns, 365 days, ragged bounds", run: (s) => reports.getCampaignReport(db, ORG, ragged, { strategy: s }) },
    ];

    const results: Record<string, { aggregates?: number; scanIdx?: number; scan?: number; agree?: boolean }> = {};
    for (const c of cases) {
      const a = await time(c, "aggregates");
      if (SKIP_BASELINE) {
        results[c.name] = { aggregates: a.ms };
        console.log(`  ${c.name}: ${a.ms.toFixed(1)} ms`);
        continue;
      }
      const b = await time(c, "scan");
      results[c.name] = { aggregates: a.ms, scanIdx: b.ms, agree: JSON.stringify(a.result) === JSON.stringify(b.result) };
      console.log(`  ${c.name}: ${a.ms.toFixed(1)} / ${b.ms.toFixed(1)} ms${results[c.name].agree ? "" : "  DISAGREE"}`);
    }
    if (!SKIP_BASELINE) {
      for (const index of REPORT_INDEXES) await direct.unsafe(`drop index ${index}`);
      await direct.unsafe("analyze");
      for (const c of cases) {
        results[c.name].scan = (await time(c, "scan")).ms;
        console.log(`  ${c.name}, without the report indexes: ${results[c.name].scan!.toFixed(1)} ms`);
      }
    }

    // Over all time the summary equals the campaigns' own aggregates, each donation once (pages
    // are inside their parent's totals, so only top-level campaigns are summed).
    const [top] = await direct`select sum(raised_amount_cents)::bigint::text as raised, sum(donation_count)::int as n
                               from campaigns where org_id = ${ORG} and parent_campaign_id is null`;
    const summary = await reports.getReportSummary(db, ORG, all);
    const matches = String(summary.raisedCents) === top.raised && summary.count === top.n;
    const fmt = (v?: number) => (v === undefined ? "" : v.toFixed(1)).padStart(12);
    const [{ server_version: version }] = await direct`show server_version`;
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" ");
    console.log(
      `\nMedian of ${RUNS} runs after ${WARMUP} warm-up, ms (${n} donations; Postgres ${version}; ${os.cpus().length} CPUs, load ${load}):`,
    );
    console.log(`${"report".padEnd(38)}${"aggregates".padStart(12)}${"scan+idx".padStart(12)}${"scan".padStart(12)}  same numbers`);
    for (const [name, r] of Object.entries(results)) {
      const agree = r.agree === undefined ? "" : r.agree ? "yes" : "NO";
      console.log(`${name.padEnd(38)}${fmt(r.aggregates)}${fmt(r.scanIdx)}${fmt(r.scan)}  ${agree}`);
    }
    console.log(`\nAll-time summary equals the campaigns' raisedAmountCents/donationCount: ${matches ? "yes" : "NO"}`);
  } finally {
    await direct.end({ timeout: 5 });
    await closeDb();
    if (KEEP) console.log(`kept ${DATABASE_URL}`);
    else await admin.unsafe(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end({ timeout: 5 });
  }
}

// Interrupted: still drop the scratch database.
process.once("SIGINT", () => {
  void admin
    .unsafe(`drop database if exists ${DB_NAME} with (force)`)
    .catch(() => {})
    .finally(() => process.exit(130));
});

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
