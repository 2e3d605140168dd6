import type { EventEmitter } from "node:events";
import type { Db, DbOrTx, Tx } from "@/db";
import { transaction } from "@/db/transaction";
import { listTeamMembers, listTopPages } from "@/db/queries/fundraisers";
import { findPublicCampaign, listDonorRoll, listLeaderboard } from "@/db/queries/public-campaigns";
import type { Campaign, Organization } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { serializePublicCampaignView, type PublicCampaignView } from "@/lib/schemas/public-campaign-view";

/**
 * The public view of a published campaign (what GET /api/public/… answers and the donate page
 * shows), kept in this process for a moment: a popular campaign's page is read far more often
 * than its totals change.
 *
 * - Keyed by what addresses it: the organization's slug AND the campaign's slug, or the
 *   campaign's ID; never by the campaign's slug alone, which other organizations reuse.
 * - Only what a fresh load answers is kept: a DRAFT campaign is never found (findPublicCampaign),
 *   a donor roll names no anonymous or erased donor (serializePublicCampaignView), so neither is a hit.
 * - At most VIEW_TTL_MS old: another app instance shows a donation within that time plus its own
 *   load. In this process, a donation that starts or stops counting (settled, refunded, disputed,
 *   failed) drops its campaign's entries at once (campaignViewChanged), again after its
 *   transaction commits, so no load that read the old totals keeps them.
 * - Concurrent misses for one key share one load; a load that fails is not kept.
 */

export const VIEW_TTL_MS = 1000;
/** Entries kept at most; the oldest go first. */
const MAX_ENTRIES = 5000;

export type PublicCampaignRow = { campaign: Campaign; org: Organization };
export type PublicView = PublicCampaignView;
/** A cached answer: the campaign with its view and the view's JSON, or null for none (unknown or DRAFT). */
export type CachedView = (PublicCampaignRow & { view: PublicView; json: string }) | null;

export type ViewAddress = { orgSlug: string; slug: string } | { id: string };

type Entry = { key: string; expires: number; campaignId: string | null; value: Promise<CachedView> };

const entries = new Map<string, Entry>();
/** Entries whose load is under way (their campaign is not known yet). */
const loading = new Set<Entry>();
/** Campaign ID → keys of its entries, to drop them when its totals change. */
const keysOfCampaign = new Map<string, Set<string>>();

// Neither part can contain NUL (the route refuses such paths; Postgres text can't hold one).
const keyOf = (by: ViewAddress, social: boolean) =>
  `${social ? "" : "light\0"}${"id" in by ? `id\0${by.id}` : `slug\0${by.orgSlug}\0${by.slug}`}`;

function forget(key: string) {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  if (entry.campaignId) keysOfCampaign.get(entry.campaignId)?.delete(key);
}

/**
 * A published campaign's public view, read now: its donor roll only when it shows one, the
 * leaderboard only for a peer-to-peer parent, neither when `social` is false (the donate page
 * under overload).
 */
export async function publicCampaignView(
  db: DbOrTx,
  row: PublicCampaignRow,
  { social = true }: { social?: boolean } = {},
): Promise<PublicView> {
  const { campaign } = row;
  const parent = campaign.type === "PEER_TO_PEER" && !campaign.parentCampaignId && social;
  const [donorRoll, leaderboard, fundraisers, teams, members] = await Promise.all([
    campaign.showDonorRoll && social ? listDonorRoll(db, campaign.id) : null,
    parent ? listLeaderboard(db, campaign.id) : null,
    parent ? listTopPages(db, campaign.id, false) : null,
    parent ? listTopPages(db, campaign.id, true) : null,
    campaign.isTeam && social ? listTeamMembers(db, campaign.id) : null,
  ]);
  return serializePublicCampaignView(row, { donorRoll, leaderboard, fundraisers, teams, members });
}

async function load(db: DbOrTx, by: ViewAddress, social: boolean): Promise<CachedView> {
  let row: PublicCampaignRow;
  try {
    row = await findPublicCampaign(db, by);
  } catch (err) {
    if (err instanceof AppError && err.code === "campaign_not_found") return null;
    throw err;
  }
  const view = await publicCampaignView(db, row, { social });
  return { ...row, view, json: JSON.stringify(view) };
}

/**
 * The campaign's public view, from this process's cache when a load of it is at most
 * VIEW_TTL_MS old (or under way), else loaded. Null for an unknown or DRAFT campaign.
 * `social: false` is the light view (no donor roll or leaderboard), kept apart.
 */
export function cachedPublicCampaignView(db: Db, by: ViewAddress, { social = true }: { social?: boolean } = {}): Promise<CachedView> {
  const key = keyOf(by, social);
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && hit.expires > now) return hit.value;
  if (hit) forget(key);
  const entry: Entry = { key, expires: now + VIEW_TTL_MS, campaignId: null, value: load(db, by, social) };
  entries.set(key, entry);
  loading.add(entry);
  if (entries.size > MAX_ENTRIES) forget(entries.keys().next().value!);
  entry.value.then(
    (v) => {
      loading.delete(entry);
      // Dropped (or replaced) while it loaded: a change may have landed after its reads.
      if (entries.get(key) !== entry) return;
      if (!v) return;
      entry.campaignId = v.campaign.id;
      let keys = keysOfCampaign.get(v.campaign.id);
      if (!keys) keysOfCampaign.set(v.campaign.id, (keys = new Set()));
      keys.add(key);
    },
    () => {
      loading.delete(entry);
      if (entries.get(key) === entry) forget(key);
    },
  );
  return entry.value;
}

/** Drops this copy's cached views of these campaigns (and, by their IDs, nothing else). */
function dropHere(campaignIds: readonly string[]): void {
  for (const id of campaignIds) {
    const keys = keysOfCampaign.get(id);
    keysOfCampaign.delete(id);
    for (const key of keys ?? []) entries.delete(key);
  }
  // A load under way may be of one of them and have read the old totals: none of those is kept
  // (their callers still get them; the next request loads again).
  if (campaignIds.length > 0) {
    for (const entry of loading) if (entries.get(entry.key) === entry) entries.delete(entry.key);
    loading.clear();
  }
}

function dropAllHere(): void {
  entries.clear();
  keysOfCampaign.clear();
  loading.clear();
}

/**
 * This module can be loaded twice in one server process: Next.js runs its bundle of it for the
 * routes and pages it serves, and the server loads the fast routes' modules itself
 * (server/fast-path.ts), each copy with its own entries. A drop is therefore announced on
 * `process`, synchronously, and every other copy drops the same entries at once.
 */
const DROPPED = "goodfund:public-campaign-views-dropped";
const thisCopy = {};
const processEvents: EventEmitter = process;
processEvents.on(DROPPED, (from: object, campaignIds: readonly string[] | null) => {
  if (from === thisCopy) return;
  if (campaignIds) dropHere(campaignIds);
  else dropAllHere();
});

/** Drops the cached views of these campaigns (and, by their IDs, nothing else), in every copy of this module. */
export function dropCampaignViews(campaignIds: Iterable<string | null | undefined>): void {
  const ids = [...campaignIds].filter((id): id is string => Boolean(id));
  if (ids.length === 0) return;
  dropHere(ids);
  processEvents.emit(DROPPED, thisCopy, ids);
}

/** Drops every cached view (an organization or a donor changed in a way any view may show), in every copy of this module. */
export function dropAllCampaignViews(): void {
  dropAllHere();
  processEvents.emit(DROPPED, thisCopy, null);
}

// Campaigns changed inside a transaction, dropped again once it has committed (see afterCommit).
const changedIn = new WeakMap<object, Set<string>>();

/**
 * A donation of these campaigns started or stopped counting in `tx`: their views go now, and
 * again when the caller's `afterCommit` runs, so that a view loaded while `tx` was still open
 * (reading the old totals) is not kept either.
 */
export function campaignViewChanged(tx: object, ...campaignIds: (string | null | undefined)[]): void {
  dropCampaignViews(campaignIds);
  let set = changedIn.get(tx);
  if (!set) changedIn.set(tx, (set = new Set()));
  for (const id of campaignIds) if (id) set.add(id);
}

/** Runs `fn` in a transaction of `db` (db/transaction.ts); once it commits, drops the views of the campaigns it changed. */
export async function transactionDroppingViews<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let txSeen: object | undefined;
  const result = await transaction(db, (tx) => {
    txSeen = tx;
    return fn(tx);
  });
  const changed = txSeen && changedIn.get(txSeen);
  if (changed) dropCampaignViews(changed);
  return result;
}
