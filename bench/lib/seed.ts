import type { Sql } from "postgres";

/**
 * The bench's data, written straight into its own database with set-based SQL (generate_series):
 * rows shaped like the ones the app writes (IDs with the app's prefixes, donors per email, a
 * `donation.created` timeline entry per donation, aggregates that agree with the donations).
 *
 * - `bench-ops`: 1 000 ACTIVE campaigns (the campaign list; the webhook "spread" workload), the
 *   target campaign of POST /api/donations, and pools of PENDING donations with payment intents.
 * - `bench-hot`: one ACTIVE campaign that every event of the "hot" workload lands on.
 * - `bench-reports`: 100 campaigns with `BENCH_DONATIONS` (1 000 000) donations over two years
 *   (written in time order, so the table's physical order follows created_at as in production),
 *   100 000 donors, recurring plans, the reports' per-day totals; campaign 0 holds a fifth of
 *   them (a popular campaign: its public page's donor roll reads from 180 000 gifts).
 */

export const OWNER = { id: "usr_bench_owner000000000", email: "owner@bench.goodfund.local", name: "Bench Owner" };
export const OPS = { id: "org_bench_ops00000000000", slug: "bench-ops" };
export const HOT = { id: "org_bench_hot00000000000", slug: "bench-hot" };
export const REPORTS = { id: "org_bench_reports000000", slug: "bench-reports" };
export const HOT_CAMPAIGN = "cmp_bench_hot0000000000";
export const DONATE_CAMPAIGN = "cmp_bench_ops000000000"; // campaign 0 of bench-ops
export const OPS_CAMPAIGNS = 1000;
export const REPORT_CAMPAIGNS = 100;
export const REPORT_DONORS = 100_000;
export const POPULAR_SLUG = "campaign-0000";
/** A peer-to-peer parent of bench-hot (not bench-ops, whose unpaged campaign list is measured) with P2P_PAGES supporters' pages (a tenth of them team pages' members). */
export const P2P_PARENT = { id: "cmp_bench_p2p_parent00", slug: "run-for-the-bench" };
export const P2P_PAGES = 10_000;
export const P2P_TEAMS = 500;

export const opsCampaignId = (i: number) => `cmp_bench_ops${String(i).padStart(9, "0")}`;
export const reportCampaignId = (i: number) => `cmp_bench_rep${String(i).padStart(9, "0")}`;

const DESCRIPTION =
  "<p>Every gift to this appeal goes straight to the programme: school meals, after-school tutoring and " +
  "summer camps for children in our neighbourhood. Last year 1 200 children took part; this year we want to " +
  "reach 2 000. Thank you for standing with us.</p>";

async function org(sql: Sql, o: { id: string; slug: string }, name: string) {
  await sql`
    insert into organizations (id, name, slug, status, notification_email, processor_account_id, charges_enabled,
                               payouts_enabled, legal_name, tax_id, color, currency)
    values (${o.id}, ${name}, ${o.slug}, 'ACTIVE', ${`finance@${o.slug}.example.org`}, ${`acct_sandbox_${o.slug.replace("-", "")}`},
            true, true, ${`${name} Inc.`}, '12-3456789', '#0a7d55', 'usd')`;
  await sql`insert into memberships (org_id, user_id, role) values (${o.id}, ${OWNER.id}, 'OWNER')`;
}

async function campaignsOf(sql: Sql, orgId: string, prefix: string, count: number, goal: number) {
  await sql`
    insert into campaigns (id, org_id, title, slug, description, type, status, goal_amount_cents, color, created_at, updated_at)
    select ${prefix} || lpad(g::text, 9, '0'), ${orgId}, 'Campaign ' || g || ': spring appeal', 'campaign-' || lpad(g::text, 4, '0'),
           ${DESCRIPTION}, 'DONATION', 'ACTIVE', ${goal}, '#0a7d55',
           now() - make_interval(mins => ${count} - g), now() - make_interval(mins => ${count} - g)
    from generate_series(0, ${count - 1}) g`;
}

async function donorsOf(sql: Sql, orgId: string, prefix: string, count: number) {
  await sql`
    insert into donors (id, org_id, email, first_name, last_name, created_at, updated_at)
    select ${prefix} || lpad(g::text, 9, '0'), ${orgId}, ${prefix} || g || '@example.org',
           'Ada' || (g % 997), 'Lovelace' || (g % 991), now() - interval '800 days', now() - interval '800 days'
    from generate_series(0, ${count - 1}) g`;
}

/** The fixed part: owner, organizations, campaigns, donors of the ops/hot organizations. */
export async function seedBase(sql: Sql) {
  await sql`insert into users (id, email, name) values (${OWNER.id}, ${OWNER.email}, ${OWNER.name})`;
  await org(sql, OPS, "Bench Operations Fund");
  await org(sql, HOT, "Bench Hot Campaign Fund");
  await org(sql, REPORTS, "Bench Reports Fund");
  // Goals big enough that the bench's gifts cross no milestone (the app's own cost after a
  // milestone, four no-op milestone inserts per gift, is noted in the report instead).
  await campaignsOf(sql, OPS.id, "cmp_bench_ops", OPS_CAMPAIGNS, 50_000_000);
  await sql`
    insert into campaigns (id, org_id, title, slug, description, type, status, goal_amount_cents, color)
    values (${HOT_CAMPAIGN}, ${HOT.id}, 'Giving day', 'giving-day', ${DESCRIPTION}, 'DONATION', 'ACTIVE', 100000000000, '#c0392b')`;
  await donorsOf(sql, OPS.id, "dnr_bench_ops", 10_000);
  await donorsOf(sql, HOT.id, "dnr_bench_hot", 10_000);
}

/**
 * The peer-to-peer parent and its supporters' pages: P2P_TEAMS team pages, then P2P_PAGES member
 * pages (every one in a team), totals spread so the leaderboards have an order; the parent's and
 * the teams' totals are the sums of their pages' (as the roll-up keeps them).
 */
export async function seedPeerToPeer(sql: Sql) {
  await sql`
    insert into campaigns (id, org_id, title, slug, description, type, status, goal_amount_cents, color)
    values (${P2P_PARENT.id}, ${HOT.id}, 'Run for the bench', ${P2P_PARENT.slug}, ${DESCRIPTION}, 'PEER_TO_PEER', 'ACTIVE', 500000000, '#0a7d55')`;
  await sql`
    insert into campaigns (id, org_id, title, slug, type, status, parent_campaign_id, is_team, fundraiser_first_name, fundraiser_last_name,
                           goal_amount_cents, created_at, updated_at)
    select 'cmp_bench_team' || lpad(g::text, 8, '0'), ${HOT.id}, 'Team ' || g, 'team-' || g, 'PEER_TO_PEER', 'ACTIVE', ${P2P_PARENT.id},
           true, 'Captain', 'Number ' || g, 1000000, now(), now()
    from generate_series(0, ${P2P_TEAMS - 1}) g`;
  await sql`
    insert into campaigns (id, org_id, title, slug, type, status, parent_campaign_id, team_id, fundraiser_first_name, fundraiser_last_name,
                           goal_amount_cents, raised_amount_cents, donation_count, created_at, updated_at)
    select 'cmp_bench_page' || lpad(g::text, 8, '0'), ${HOT.id}, 'Runner ' || g || ' runs', 'runner-' || g, 'PEER_TO_PEER', 'ACTIVE',
           ${P2P_PARENT.id}, 'cmp_bench_team' || lpad((g % ${P2P_TEAMS})::text, 8, '0'), 'Runner', 'Number ' || g,
           50000, 0, 0, now(), now()
    from generate_series(0, ${P2P_PAGES - 1}) g`;
  // Their gifts, one supporter each: (g × 31) mod 50 per page, imported (no receipt numbers or
  // emails), so every total below is what the donations say (tests/helpers/invariants.ts).
  await donorsOf(sql, HOT.id, "dnr_bench_p2p", P2P_PAGES);
  await sql`
    insert into donations (id, org_id, campaign_id, donor_id, amount, currency, status, email, first_name, last_name, source,
                           created_at, updated_at, succeeded_at)
    select 'don_bench_p2p' || lpad(g::text, 6, '0') || '_' || k, ${HOT.id}, 'cmp_bench_page' || lpad(g::text, 8, '0'),
           'dnr_bench_p2p' || lpad(g::text, 9, '0'), 500 + (g * 7919) % 9500, 'usd', 'SUCCEEDED', 'dnr_bench_p2p' || g || '@example.org',
           'Ada' || (g % 997), 'Lovelace' || (g % 991), 'IMPORT', now() - k * interval '1 hour', now() - k * interval '1 hour',
           now() - k * interval '1 hour'
    from generate_series(0, ${P2P_PAGES - 1}) g cross join lateral generate_series(1, (g * 31) % 50) k`;
  await sql`
    update campaigns c set raised_amount_cents = s.raised, donation_count = s.n
    from (select campaign_id, sum(amount) as raised, count(*) as n from donations
          where org_id = ${HOT.id} and id like 'don_bench_p2p%' group by campaign_id) s
    where c.id = s.campaign_id`;
  await sql`
    insert into campaign_daily_totals (org_id, campaign_id, day, raised_cents, donation_count)
    select d.org_id, d.campaign_id, (d.succeeded_at at time zone o.time_zone)::date, sum(d.amount), count(*)
    from donations d join organizations o on o.id = d.org_id
    where d.org_id = ${HOT.id} and d.id like 'don_bench_p2p%' group by 1, 2, 3`;
  await sql`
    update donors o set total_given_cents = s.total, donation_count = s.n, first_donation_at = s.first, last_donation_at = s.last
    from (select donor_id, sum(amount) as total, count(*) as n, min(succeeded_at) as first, max(succeeded_at) as last
          from donations where org_id = ${HOT.id} and id like 'don_bench_p2p%' group by donor_id) s
    where o.id = s.donor_id`;
  await sql`
    update campaigns t set raised_amount_cents = s.raised, donation_count = s.n
    from (select team_id, sum(raised_amount_cents) as raised, sum(donation_count) as n from campaigns
          where parent_campaign_id = ${P2P_PARENT.id} and team_id is not null group by team_id) s
    where t.id = s.team_id`;
  await sql`
    update campaigns p set raised_amount_cents = s.raised, donation_count = s.n
    from (select sum(raised_amount_cents) as raised, sum(donation_count) as n from campaigns
          where parent_campaign_id = ${P2P_PARENT.id} and not is_team) s
    where p.id = ${P2P_PARENT.id}`;
}

export type Pool = { name: string; ids: string[]; paymentIntents: string[]; amounts: number[]; orgId: string; account: string };

/**
 * `count` PENDING one-time donations with a payment intent each, as POST /api/donations leaves
 * them: spread round-robin over the 1 000 ops campaigns, or all on the hot campaign. Donors are
 * drawn from 10 000 per organization (so concurrent events sometimes share a donor row).
 */
export async function seedPendingPool(sql: Sql, name: string, count: number, target: "spread" | "hot"): Promise<Pool> {
  const orgId = target === "hot" ? HOT.id : OPS.id;
  const donorPrefix = target === "hot" ? "dnr_bench_hot" : "dnr_bench_ops";
  const campaign = target === "hot" ? sql`${HOT_CAMPAIGN}` : sql`'cmp_bench_ops' || lpad((g % ${OPS_CAMPAIGNS})::text, 9, '0')`;
  const rows = await sql<{ id: string; payment_intent_id: string; amount: number }[]>`
    with s as (select g, (random() * 9999)::int as d, 500 + (random() * random() * 20000)::int as amount
               from generate_series(1, ${count}) g),
    ins as (
      insert into donations (id, org_id, campaign_id, donor_id, amount, currency, status, email, first_name, last_name,
                             anonymous, message, payment_intent_id, created_at, updated_at)
      select 'don_' || ${name} || lpad(g::text, 9, '0'), ${orgId}, ${campaign}, ${donorPrefix} || lpad(d::text, 9, '0'),
             amount, 'usd', 'PENDING', ${donorPrefix} || d || '@example.org', 'Ada' || (d % 997), 'Lovelace' || (d % 991),
             g % 17 = 0, case when g % 10 = 0 then 'Happy to help, keep going!' end,
             'pi_sandbox_' || ${name} || lpad(g::text, 9, '0'), now() - interval '1 minute', now() - interval '1 minute'
      from s
      returning id, payment_intent_id, amount, created_at),
    ev as (
      insert into donation_events (donation_id, type, data, created_at)
      select id, 'donation.created', jsonb_build_object('amount', amount, 'chargeAmountCents', amount), created_at from ins)
    select id, payment_intent_id, amount from ins`;
  // Delivery order: random (events of a busy platform arrive in no particular order).
  const shuffled = rows.map((r) => r).sort(() => Math.random() - 0.5);
  return {
    name,
    ids: shuffled.map((r) => r.id),
    paymentIntents: shuffled.map((r) => r.payment_intent_id),
    amounts: shuffled.map((r) => r.amount),
    orgId,
    account: target === "hot" ? `acct_sandbox_benchhot` : `acct_sandbox_benchops`,
  };
}

/**
 * The reports organization with `total` donations. The donations table's secondary indexes are
 * dropped for the bulk insert and rebuilt from their own definitions afterwards (much faster
 * than maintaining twelve indexes row by row); foreign keys are skipped for the load
 * (session_replication_role), the rows reference only what was inserted before them.
 */
export async function seedReports(sql: Sql, total: number, log: (s: string) => void) {
  await campaignsOf(sql, REPORTS.id, "cmp_bench_rep", REPORT_CAMPAIGNS, 200_000_000);
  await donorsOf(sql, REPORTS.id, "dnr_bench_rep", REPORT_DONORS);
  await sql`
    insert into recurring_plans (id, org_id, campaign_id, donor_id, subscription_id, amount, currency, interval, status, created_at, updated_at)
    select 'rp_bench_rep' || lpad(g::text, 9, '0'), ${REPORTS.id}, 'cmp_bench_rep' || lpad((g % ${REPORT_CAMPAIGNS})::text, 9, '0'),
           'dnr_bench_rep' || lpad(((g * 7919) % ${REPORT_DONORS})::text, 9, '0'), 'sub_sandbox_rep' || g, 1000 + (g % 10) * 500, 'usd',
           case when g % 5 = 0 then 'YEAR' else 'MONTH' end::recurring_interval,
           case when g % 10 = 0 then 'CANCELED' else 'ACTIVE' end::recurring_plan_status, now() - interval '400 days', now()
    from generate_series(0, 4999) g`;

  await sql.begin(async (tx) => {
    const indexes = await tx<{ indexname: string; indexdef: string }[]>`
      select i.indexname, i.indexdef from pg_indexes i
      where i.tablename = 'donations' and i.schemaname = 'public'
        and i.indexname not in (select conname from pg_constraint where conrelid = 'donations'::regclass)`;
    for (const i of indexes) await tx.unsafe(`drop index "${i.indexname}"`);
    await tx`set local session_replication_role = replica`;
    await tx`set local maintenance_work_mem = '256MB'`;
    const started = Date.now();
    await tx`
      insert into donations (id, org_id, campaign_id, donor_id, amount, currency, status, email, first_name, last_name, anonymous,
                             message, recurring_interval, recurring_plan_id, subscription_id, is_renewal, payment_intent_id,
                             charge_id, fee_cents, cover_fees, failure_reason, dispute_reason, created_at, updated_at, succeeded_at)
      select 'don_bench_rep' || lpad(g::text, 9, '0'), ${REPORTS.id},
             case when g % 5 = 0 then 'cmp_bench_rep000000000' else 'cmp_bench_rep' || lpad((1 + g % ${REPORT_CAMPAIGNS - 1})::text, 9, '0') end,
             'dnr_bench_rep' || lpad(d::text, 9, '0'), amount, 'usd', status::donation_status,
             'dnr_bench_rep' || d || '@example.org', 'Ada' || (d % 997), 'Lovelace' || (d % 991), g % 17 = 0,
             case when g % 10 = 0 then 'In memory of grandma, who loved this place.' end,
             case when recurring then 'MONTH' end::recurring_interval,
             case when recurring then 'rp_bench_rep' || lpad((g / 200 % 5000)::text, 9, '0') end,
             case when recurring then 'sub_sandbox_rep' || (g / 200 % 5000) end, recurring and g % 400 <> 0,
             'pi_sandbox_rep' || g, case when status <> 'FAILED' and status <> 'PENDING' then 'ch_sandbox_rep' || g end,
             case when g % 3 = 0 then 32 + amount * 22 / 1000 else 0 end, g % 3 = 0,
             case when status = 'FAILED' then 'Your card was declined.' end,
             case when status = 'DISPUTED' then 'fraudulent' end,
             at - interval '40 seconds', at, case when status in ('SUCCEEDED', 'REFUNDED', 'DISPUTED') then at end
      from (select g, (random() * ${REPORT_DONORS - 1})::int as d, 500 + (random() * random() * 50000)::int as amount,
                   g % 200 = 0 as recurring,
                   -- In insertion order, as a real table fills up over two years (a few minutes of jitter).
                   now() - (1 - g::float8 / ${total}) * interval '730 days' - random() * interval '5 minutes' as at,
                   case when r < 0.90 then 'SUCCEEDED' when r < 0.94 then 'FAILED' when r < 0.97 then 'PENDING'
                        when r < 0.99 then 'REFUNDED' else 'DISPUTED' end as status
            from (select g, random() as r from generate_series(1, ${total}) g) x) s`;
    log(`  ${total} donations inserted in ${((Date.now() - started) / 1000).toFixed(1)} s; rebuilding ${indexes.length} indexes`);
    const built = Date.now();
    for (const i of indexes) await tx.unsafe(i.indexdef);
    log(`  indexes rebuilt in ${((Date.now() - built) / 1000).toFixed(1)} s`);
  });

  // Aggregates exactly as the app keeps them (the invariants in tests/helpers/invariants.ts).
  await sql`
    update campaigns c set raised_amount_cents = s.raised, donation_count = s.n
    from (select campaign_id, sum(amount) as raised, count(*) as n from donations
          where org_id = ${REPORTS.id} and status = 'SUCCEEDED' group by campaign_id) s
    where c.id = s.campaign_id`;
  await sql`
    insert into campaign_daily_totals (org_id, campaign_id, day, raised_cents, donation_count)
    select org_id, campaign_id, (succeeded_at at time zone 'UTC')::date, sum(amount), count(*)
    from donations where org_id = ${REPORTS.id} and status = 'SUCCEEDED' group by 1, 2, 3`;
  await sql`
    update donors o set total_given_cents = s.total, donation_count = s.n, first_donation_at = s.first, last_donation_at = s.last
    from (select donor_id, sum(amount) as total, count(*) as n, min(succeeded_at) as first, max(succeeded_at) as last
          from donations where org_id = ${REPORTS.id} and status = 'SUCCEEDED' group by donor_id) s
    where o.id = s.donor_id`;
}

/** What autovacuum would have done by the time a real table held these rows (visibility map, statistics). */
export async function vacuumAnalyze(sql: Sql) {
  await sql.unsafe("vacuum (analyze)");
}
