import { and, countDistinct, desc, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { prepared } from "@/db/prepared";
import { campaigns, donations, organizations, type Campaign, type Organization } from "@/db/schema";
import { acceptsDonations } from "@/lib/accepting-donations";
import { notFound } from "@/lib/errors";
import { iso } from "@/lib/schemas/common";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { serializeCampaign } from "@/lib/schemas/campaigns";

const DONOR_ROLL_SIZE = 50;
const LEADERBOARD_SIZE = 20;

const ph = sql.placeholder;

// Built once per process (db/prepared.ts).
const publicCampaignBy = (name: string, where: () => ReturnType<typeof and>) =>
  prepared(name, (db) =>
    db
      .select({ campaign: campaigns, org: organizations })
      .from(campaigns)
      .innerJoin(organizations, eq(organizations.id, campaigns.orgId))
      .where(and(where(), ne(campaigns.status, "DRAFT")))
      .limit(1),
  );
const publicCampaignById = publicCampaignBy("public_campaign_by_id", () => eq(campaigns.id, ph("id")));
const publicCampaignBySlugs = publicCampaignBy("public_campaign_by_slugs", () =>
  and(eq(organizations.slug, ph("orgSlug")), eq(campaigns.slug, ph("slug"))),
);

const donorRollOf = prepared("public_donor_roll", (db) =>
  db
    .select({
      firstName: donations.firstName,
      anonymous: donations.anonymous,
      amount: donations.amount,
      message: donations.message,
      createdAt: donations.createdAt,
    })
    .from(donations)
    .where(and(eq(donations.campaignId, ph("campaignId")), eq(donations.status, "SUCCEEDED")))
    .orderBy(desc(donations.createdAt), desc(donations.id))
    .limit(DONOR_ROLL_SIZE),
);

const leaderboardOf = prepared("public_leaderboard", (db) =>
  db
    .select({
      id: campaigns.id,
      title: campaigns.title,
      slug: campaigns.slug,
      raisedAmountCents: campaigns.raisedAmountCents,
      donationCount: campaigns.donationCount,
    })
    .from(campaigns)
    .where(and(eq(campaigns.parentCampaignId, ph("campaignId")), ne(campaigns.status, "DRAFT")))
    .orderBy(desc(campaigns.raisedAmountCents), desc(campaigns.donationCount), campaigns.id)
    .limit(LEADERBOARD_SIZE),
);

/** A published campaign (not DRAFT) by its ID, or by organization slug and campaign slug. */
export async function findPublicCampaign(
  db: DbOrTx,
  by: { id: string } | { orgSlug: string; slug: string },
): Promise<{ campaign: Campaign; org: Organization }> {
  const [row] = "id" in by ? await publicCampaignById(db, { id: by.id }) : await publicCampaignBySlugs(db, by);
  if (!row) throw notFound("campaign_not_found", "Campaign not found");
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

/**
 * What a donor's browser may see: no aggregates unless `showGoal`, no donor roll unless
 * `showDonorRoll`, donors named by first name only (or "Anonymous"), never an email.
 */
export async function publicCampaignView(
  db: DbOrTx,
  { campaign, org }: { campaign: Campaign; org: Organization },
  /** `social: false` leaves out the donor roll and leaderboard (the donate page under overload). */
  { social = true }: { social?: boolean } = {},
) {
  const [donorRoll, leaderboard] = await Promise.all([
    campaign.showDonorRoll && social ? donorRollOf(db, { campaignId: campaign.id }) : null,
    campaign.type === "PEER_TO_PEER" && !campaign.parentCampaignId && social ? leaderboardOf(db, { campaignId: campaign.id }) : null,
  ]);

  const full = serializeCampaign(campaign);
  const { raisedAmountCents, donationCount, goalAmountCents, matchedAmountCents, scheduledPublishAt, ...visible } = full;
  void scheduledPublishAt;
  // Exactly what POST /api/donations checks: status, start and end dates, the payout account.
  const accepting = acceptsDonations(campaign, org);
  return {
    campaign: { ...visible, donateUrl: `${donateBaseUrl(org)}/donate/${campaign.slug}` },
    organization: {
      id: org.id,
      name: org.name,
      slug: org.slug,
      logoUrl: org.logoUrl,
      color: org.color,
      acceptingDonations: org.status === "ACTIVE",
    },
    acceptingDonations: accepting,
    progress: campaign.showGoal
      ? {
          goalAmountCents,
          raisedAmountCents,
          donationCount,
          matchedAmountCents,
          percent: goalAmountCents ? Math.round((raisedAmountCents / goalAmountCents) * 1000) / 10 : null,
        }
      : null,
    donorRoll:
      donorRoll?.map((d) => ({
        name: d.anonymous || !d.firstName ? "Anonymous" : d.firstName,
        amountCents: d.amount,
        message: d.message,
        createdAt: iso(d.createdAt)!,
      })) ?? null,
    leaderboard,
  };
}
