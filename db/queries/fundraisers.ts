import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, donations, type Campaign } from "@/db/schema";
import type { OffsetPage as Page } from "./rows";

/** A page the public may see: published, and not hidden by staff. */
export const publiclyListed = and(ne(campaigns.status, "DRAFT"), or(isNull(campaigns.moderation), ne(campaigns.moderation, "HIDDEN")));

const byRaised = [desc(campaigns.raisedAmountCents), desc(campaigns.donationCount), asc(campaigns.id)] as const;

/** `%text%` for ILIKE, with the pattern's own characters escaped. */
const contains = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A peer-to-peer parent's public leaderboard: its supporters' pages (or its teams, or one team's
 * members), most raised first, a page at a time; `q` keeps those whose title or supporter's name
 * contains it.
 */
export async function listLeaderboardPage(
  db: DbOrTx,
  parentId: string,
  opts: { teams: boolean; teamId?: string; q?: string },
  page: Page,
): Promise<{ rows: Campaign[]; total: number }> {
  const conditions: (SQL | undefined)[] = [eq(campaigns.parentCampaignId, parentId), eq(campaigns.isTeam, opts.teams), publiclyListed];
  if (opts.teamId) conditions.push(eq(campaigns.teamId, opts.teamId));
  if (opts.q) {
    const pattern = contains(opts.q);
    conditions.push(
      or(
        ilike(campaigns.title, pattern),
        ilike(sql`coalesce(${campaigns.fundraiserFirstName}, '') || ' ' || coalesce(${campaigns.fundraiserLastName}, '')`, pattern),
      ),
    );
  }
  const where = and(...conditions);
  const [rows, [{ n }]] = await Promise.all([
    db
      .select()
      .from(campaigns)
      .where(where)
      .orderBy(...byRaised)
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(campaigns).where(where),
  ]);
  return { rows, total: n };
}

/** A team page's members (visible pages naming it), most raised first, at most `limit`. */
export function listTeamMembers(db: DbOrTx, teamId: string, limit = 100) {
  return db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.teamId, teamId), publiclyListed))
    .orderBy(...byRaised)
    .limit(limit);
}

/** The top `limit` pages or teams of a parent (its public view's leaderboards). */
export function listTopPages(db: DbOrTx, parentId: string, teams: boolean, limit = 10) {
  return db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.parentCampaignId, parentId), eq(campaigns.isTeam, teams), publiclyListed))
    .orderBy(...byRaised)
    .limit(limit);
}

/** The pages (and team pages) a supporter started on an organization, newest first. */
export function listSupporterPages(db: DbOrTx, orgId: string, donorId: string) {
  return db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), eq(campaigns.fundraiserDonorId, donorId)))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id));
}

/** One of a supporter's own pages, or undefined (anyone else's is not found). */
export async function findSupporterPage(db: DbOrTx, orgId: string, donorId: string, id: string): Promise<Campaign | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), eq(campaigns.orgId, orgId), eq(campaigns.fundraiserDonorId, donorId)))
    .limit(1);
  return row;
}

/** Gifts received by these pages (counted, refunded or disputed), newest first. */
export async function listPageGifts(db: DbOrTx, pageIds: string[], page: Page) {
  if (pageIds.length === 0) return { rows: [], total: 0 };
  const where = and(inArray(donations.campaignId, pageIds), inArray(donations.status, ["SUCCEEDED", "REFUNDED", "DISPUTED"]));
  const [rows, [{ n }]] = await Promise.all([
    db
      .select({
        id: donations.id,
        campaignId: donations.campaignId,
        firstName: donations.firstName,
        lastName: donations.lastName,
        anonymous: donations.anonymous,
        amount: donations.amount,
        currency: donations.currency,
        message: donations.message,
        status: donations.status,
        createdAt: donations.createdAt,
      })
      .from(donations)
      .where(where)
      .orderBy(desc(donations.createdAt), desc(donations.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(donations).where(where),
  ]);
  return { rows, total: n };
}
export type PageGiftRow = Awaited<ReturnType<typeof listPageGifts>>["rows"][number];

/** Every page and team of a parent, for staff: teams first, then most raised. */
export function listParentFundraisers(db: DbOrTx, parentId: string) {
  return db
    .select()
    .from(campaigns)
    .where(eq(campaigns.parentCampaignId, parentId))
    .orderBy(desc(campaigns.isTeam), ...byRaised);
}
