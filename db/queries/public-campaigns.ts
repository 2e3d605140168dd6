import { and, countDistinct, desc, eq, isNull, ne, or } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, donations, organizations, type Campaign, type Organization } from "@/db/schema";
import { notFound } from "@/lib/errors";

const DONOR_ROLL_SIZE = 50;
const LEADERBOARD_SIZE = 20;

/** A published campaign (not DRAFT, unless `includeDraft`) by its ID, or by organization slug and campaign slug; 404 otherwise. */
export async function findPublicCampaign(
  db: DbOrTx,
  by: { id: string } | { orgSlug: string; slug: string },
  opts: { includeDraft?: boolean } = {},
): Promise<{ campaign: Campaign; org: Organization }> {
  const [row] = await db
    .select({ campaign: campaigns, org: organizations })
    .from(campaigns)
    .innerJoin(organizations, eq(organizations.id, campaigns.orgId))
    .where(
      and(
        "id" in by ? eq(campaigns.id, by.id) : and(eq(organizations.slug, by.orgSlug), eq(campaigns.slug, by.slug)),
        opts.includeDraft ? undefined : ne(campaigns.status, "DRAFT"),
        or(isNull(campaigns.moderation), ne(campaigns.moderation, "HIDDEN")),
      ),
    )
    .limit(1);
  if (!row) throw notFound("campaign_not_found", "Campaign not found");
  return row;
}

/** The campaign's donor roll: its SUCCEEDED gifts, newest first, at most DONOR_ROLL_SIZE. */
export function listDonorRoll(db: DbOrTx, campaignId: string) {
  return db
    .select({
      firstName: donations.firstName,
      anonymous: donations.anonymous,
      amount: donations.amount,
      message: donations.message,
      createdAt: donations.createdAt,
    })
    .from(donations)
    .where(and(eq(donations.campaignId, campaignId), eq(donations.status, "SUCCEEDED")))
    .orderBy(desc(donations.createdAt), desc(donations.id))
    .limit(DONOR_ROLL_SIZE);
}
export type DonorRollRow = Awaited<ReturnType<typeof listDonorRoll>>[number];

/** A peer-to-peer campaign's fundraisers (its published children), most raised first, at most LEADERBOARD_SIZE. */
export function listLeaderboard(db: DbOrTx, campaignId: string) {
  return db
    .select({
      id: campaigns.id,
      title: campaigns.title,
      slug: campaigns.slug,
      raisedAmountCents: campaigns.raisedAmountCents,
      donationCount: campaigns.donationCount,
    })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.parentCampaignId, campaignId),
        ne(campaigns.status, "DRAFT"),
        or(isNull(campaigns.moderation), ne(campaigns.moderation, "HIDDEN")),
      ),
    )
    .orderBy(desc(campaigns.raisedAmountCents), desc(campaigns.donationCount), campaigns.id)
    .limit(LEADERBOARD_SIZE);
}
export type LeaderboardRow = Awaited<ReturnType<typeof listLeaderboard>>[number];

/**
 * A DRAFT campaign and its organization by their slugs, or undefined: for the preview its
 * organization's members get at the donate URL (the caller checks the membership).
 */
export async function findDraftCampaign(db: DbOrTx, by: { orgSlug: string; slug: string }) {
  const [row] = await db
    .select({ campaign: campaigns, org: organizations })
    .from(campaigns)
    .innerJoin(organizations, eq(organizations.id, campaigns.orgId))
    .where(and(eq(organizations.slug, by.orgSlug), eq(campaigns.slug, by.slug), eq(campaigns.status, "DRAFT")))
    .limit(1);
  return row;
}

/** How many different donors have a succeeded gift to the campaign (the donate page's "N people have given"). */
export async function countCampaignSupporters(db: DbOrTx, campaignId: string): Promise<number> {
  const [row] = await db
    .select({ n: countDistinct(donations.donorId) })
    .from(donations)
    .where(and(eq(donations.campaignId, campaignId), eq(donations.status, "SUCCEEDED")));
  return row?.n ?? 0;
}
