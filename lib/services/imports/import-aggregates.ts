import { asc, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Tx } from "@/db";
import { campaignDailyTotals, campaigns, donations, donors } from "@/db/schema";
import { campaignViewChanged } from "@/lib/cache/public-campaign-view";
import { localDay } from "@/lib/services/donations/daily-totals";

// The aggregates an import's gifts feed, moved for a whole batch at once: the same changes
// moveDonation makes one gift at a time when a gift starts (SUCCEEDED) or stops counting, as a
// few grouped statements. Values go to Postgres as one JSON parameter (jsonb_to_recordset), which
// both drivers (postgres.js and PGlite) pass the same way, whatever the batch's size.

/** What a batch needs of a locked campaign: where its gifts also count, and its match. */
export type LockedCampaign = Pick<
  typeof campaigns.$inferSelect,
  "id" | "parentCampaignId" | "teamId" | "isTeam" | "matchingEnabled" | "matchingRatioPct" | "matchingMaxCents" | "matchedAmountCents"
>;

const json = (v: unknown): SQL => sql`${JSON.stringify(v)}::jsonb`;
/** `column in (…)` for any number of IDs (one parameter, not one per ID: Postgres takes at most 65 535). */
const inJson = (column: SQL.Aliased | AnyColumn, ids: string[]): SQL => sql`${column} in (select jsonb_array_elements_text(${json(ids)}))`;

/**
 * Where a page's gifts lock in moveDonation's order (page → team page → parent): pages first, then
 * team pages, then campaigns with no parent; by ID within each, so two batches (or a batch and a
 * single gift) always take the locks in the same order.
 */
const lockRank = sql`case when ${campaigns.parentCampaignId} is null then 2 when ${campaigns.isTeam} then 1 else 0 end`;

/**
 * Locks the campaigns these gifts count toward, FOR NO KEY UPDATE (what moveDonation's UPDATE
 * takes: new donations' foreign-key checks don't wait for it), with their team pages and parents,
 * in one consistent order, and answers them by ID. Which team and parent count is read on the
 * locked rows (a page moved meanwhile has its new ones locked too).
 */
export async function lockCampaigns(tx: Tx, targetIds: Iterable<string>): Promise<Map<string, LockedCampaign>> {
  const wanted = new Set(targetIds);
  if (wanted.size === 0) return new Map();
  const links = await tx
    .select({ parent: campaigns.parentCampaignId, team: campaigns.teamId })
    .from(campaigns)
    .where(inJson(campaigns.id, [...wanted]));
  for (const l of links) for (const id of [l.parent, l.team]) if (id) wanted.add(id);
  const locked = new Map<string, LockedCampaign>();
  for (;;) {
    const missing = [...wanted].filter((id) => !locked.has(id));
    if (missing.length === 0) return locked;
    const rows = await tx
      .select({
        id: campaigns.id,
        parentCampaignId: campaigns.parentCampaignId,
        teamId: campaigns.teamId,
        isTeam: campaigns.isTeam,
        matchingEnabled: campaigns.matchingEnabled,
        matchingRatioPct: campaigns.matchingRatioPct,
        matchingMaxCents: campaigns.matchingMaxCents,
        matchedAmountCents: campaigns.matchedAmountCents,
      })
      .from(campaigns)
      .where(inJson(campaigns.id, missing))
      .orderBy(lockRank, asc(campaigns.id))
      .for("no key update");
    for (const r of rows) locked.set(r.id, r);
    for (const id of missing) if (!locked.has(id)) wanted.delete(id);
    // A page given a new team or parent between the read above and its lock: lock those too.
    for (const id of [...wanted]) {
      const c = locked.get(id);
      if (c) for (const also of [c.parentCampaignId, c.teamId]) if (also) wanted.add(also);
    }
  }
}

export type CampaignDelta = { raised: number; count: number; matched: number };

/**
 * The raised amount, count and match each gift moves on its campaign, and the raised amount and
 * count on its team page and parent (as moveDonation's countOnCampaign / countOnParent), summed per
 * campaign. `sign` 1: the gifts start counting; -1: they stop.
 */
export function campaignDeltas(
  locked: Map<string, LockedCampaign>,
  gifts: { campaignId: string; amount: number; matched: number }[],
  sign: 1 | -1,
): Map<string, CampaignDelta> {
  const deltas = new Map<string, CampaignDelta>();
  const add = (id: string, raised: number, matched: number) => {
    const d = deltas.get(id) ?? { raised: 0, count: 0, matched: 0 };
    d.raised += sign * raised;
    d.count += sign;
    d.matched += sign * matched;
    deltas.set(id, d);
  };
  for (const g of gifts) {
    add(g.campaignId, g.amount, g.matched);
    const c = locked.get(g.campaignId);
    if (c?.teamId) add(c.teamId, g.amount, 0);
    if (c?.parentCampaignId) add(c.parentCampaignId, g.amount, 0);
  }
  return deltas;
}

/** Adds the deltas to the (locked) campaigns in one UPDATE, and drops their cached public views. */
export async function moveCampaigns(tx: Tx, deltas: Map<string, CampaignDelta>): Promise<void> {
  if (deltas.size === 0) return;
  const values = [...deltas].map(([id, d]) => ({ id, raised: d.raised, n: d.count, matched: d.matched }));
  await tx.execute(sql`
    update ${campaigns} set
      raised_amount_cents = ${campaigns.raisedAmountCents} + v.raised,
      donation_count = ${campaigns.donationCount} + v.n,
      matched_amount_cents = ${campaigns.matchedAmountCents} + v.matched
    from jsonb_to_recordset(${json(values)}) as v(id text, raised bigint, n integer, matched bigint)
    where ${campaigns.id} = v.id`);
  campaignViewChanged(tx, ...deltas.keys());
}

/** A gift that starts counting, as the batch knows it: `succeededAt` is the ISO instant it was inserted with. */
export type NewGift = { campaignId: string; donorId: string; amount: number; succeededAt: string };

const giftsJson = (orgId: string, gifts: NewGift[]) =>
  json(gifts.map((g) => ({ org_id: orgId, campaign_id: g.campaignId, donor_id: g.donorId, amount: g.amount, at: g.succeededAt })));
const giftColumns = sql`v(org_id text, campaign_id text, donor_id text, amount bigint, at timestamptz)`;

/**
 * Adds these gifts, which just became SUCCEEDED, to their campaigns' per-day totals, grouped by
 * campaign and day (as addToDailyTotals does gift by gift), under the campaigns' locks. The day
 * is daily-totals.ts's (localDay): the date of `succeeded_at` (the same instant, from the batch)
 * in the organization's time zone.
 */
export async function addDailyTotals(tx: Tx, orgId: string, gifts: NewGift[]): Promise<void> {
  if (gifts.length === 0) return;
  await tx.execute(sql`
    insert into ${campaignDailyTotals} (org_id, campaign_id, day, raised_cents, donation_count)
    select v.org_id, v.campaign_id, ${localDay(sql`v.at`, sql`v.org_id`)}, sum(v.amount), count(*)
    from jsonb_to_recordset(${giftsJson(orgId, gifts)}) as ${giftColumns}
    group by 1, 2, 3
    on conflict (campaign_id, day) do update set
      raised_cents = ${campaignDailyTotals.raisedCents} + excluded.raised_cents,
      donation_count = ${campaignDailyTotals.donationCount} + excluded.donation_count`);
}

/** Keys the day as daily-totals.ts does: the date of `succeeded_at` in the organization's time zone. */
const dayOf = localDay(donations.succeededAt, donations.orgId);

/**
 * Removes these SUCCEEDED donations (still in the table) from their campaigns' per-day totals,
 * grouped by campaign and day, under the campaigns' locks. An UPDATE, not an upsert (see
 * daily-totals.ts): a day a gift counted on has its row.
 */
export async function removeDailyTotals(tx: Tx, donationIds: string[]): Promise<void> {
  if (donationIds.length === 0) return;
  await tx.execute(sql`
    update ${campaignDailyTotals} set
      raised_cents = ${campaignDailyTotals.raisedCents} - g.raised,
      donation_count = ${campaignDailyTotals.donationCount} - g.n
    from (select ${donations.campaignId} as campaign_id, ${dayOf} as day, sum(${donations.amount}) as raised, count(*) as n
          from ${donations} where ${donations.id} in (select jsonb_array_elements_text(${json(donationIds)}))
          group by 1, 2) g
    where ${campaignDailyTotals.campaignId} = g.campaign_id and ${campaignDailyTotals.day} = g.day`);
}

/** Locks these donors FOR NO KEY UPDATE in ID order (after the campaigns, as everywhere). */
export async function lockDonors(tx: Tx, donorIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(donorIds)].sort();
  if (ids.length === 0) return;
  await tx.select({ id: donors.id }).from(donors).where(inJson(donors.id, ids)).orderBy(asc(donors.id)).for("no key update");
}

/**
 * Donors' totals for these gifts that just became SUCCEEDED, grouped per donor (as
 * refreshDonorTotals for each gift): total and count by delta, first/last gift times by
 * least/greatest with the gifts' `succeeded_at` (the instants they were inserted with), and the
 * names each donor's last gift in the batch gives (`names`, per donor), as a payment made now does.
 * Call with the donors locked.
 */
export async function addDonorGifts(
  tx: Tx,
  orgId: string,
  gifts: NewGift[],
  names: Map<string, { firstName: string | null; lastName: string | null; locale: string | null }>,
): Promise<void> {
  if (gifts.length === 0) return;
  const given = [...names].map(([id, n]) => ({ id, first_name: n.firstName, last_name: n.lastName, locale: n.locale }));
  await tx.execute(sql`
    update ${donors} set
      total_given_cents = ${donors.totalGivenCents} + g.total,
      donation_count = ${donors.donationCount} + g.n,
      first_donation_at = least(${donors.firstDonationAt}, g.first),
      last_donation_at = greatest(${donors.lastDonationAt}, g.last),
      first_name = coalesce(w.first_name, ${donors.firstName}),
      last_name = coalesce(w.last_name, ${donors.lastName}),
      locale = coalesce(w.locale, ${donors.locale}),
      updated_at = now()
    from (select v.donor_id, sum(v.amount) as total, count(*) as n, min(v.at) as first, max(v.at) as last
          from jsonb_to_recordset(${giftsJson(orgId, gifts)}) as ${giftColumns}
          group by 1) g
    left join jsonb_to_recordset(${json(given)}) as w(id text, first_name text, last_name text, locale text) on w.id = g.donor_id
    where ${donors.id} = g.donor_id`);
}

/**
 * Donors' totals after these gifts (already gone, or no longer SUCCEEDED) stopped counting:
 * `removed` per donor by delta, first/last gift times recomputed from what still counts (as
 * refreshDonorTotals for a gift that stops counting). Call with the donors locked.
 */
export async function removeDonorGifts(tx: Tx, removed: Map<string, { total: number; count: number }>): Promise<void> {
  if (removed.size === 0) return;
  const values = [...removed].map(([id, r]) => ({ id, total: r.total, n: r.count }));
  const counted = sql`from ${donations} where ${donations.donorId} = ${donors.id} and ${donations.status} = 'SUCCEEDED'`;
  await tx.execute(sql`
    update ${donors} set
      total_given_cents = ${donors.totalGivenCents} - v.total,
      donation_count = ${donors.donationCount} - v.n,
      first_donation_at = (select min(${donations.succeededAt}) ${counted}),
      last_donation_at = (select max(${donations.succeededAt}) ${counted}),
      updated_at = now()
    from jsonb_to_recordset(${json(values)}) as v(id text, total bigint, n integer)
    where ${donors.id} = v.id`);
}
