import type { DonorRollRow, LeaderboardRow } from "@/db/queries/public-campaigns";
import type { Campaign, Organization } from "@/db/schema";
import { acceptsDonations } from "@/lib/accepting-donations";
import { serializeCampaign } from "./campaigns";
import { iso } from "./common";
import { donateBaseUrl } from "./organizations";

// Server-side only (donateBaseUrl reads the environment): the campaign editor's client bundle
// imports ./campaigns, so this stays out of it.

/**
 * What a donor's browser may see: no aggregates unless `showGoal`, no donor roll unless
 * `showDonorRoll` (the caller reads one only then), donors named by first name only (or
 * "Anonymous"), never an email.
 */
export function serializePublicCampaignView(
  { campaign, org }: { campaign: Campaign; org: Organization },
  { donorRoll, leaderboard }: { donorRoll: DonorRollRow[] | null; leaderboard: LeaderboardRow[] | null },
) {
  const full = serializeCampaign(campaign);
  const { raisedAmountCents, donationCount, goalAmountCents, matchedAmountCents, scheduledPublishAt, ...visible } = full;
  void scheduledPublishAt;
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
    // Exactly what POST /api/donations checks: status, start and end dates, the payout account.
    acceptingDonations: acceptsDonations(campaign, org),
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

export type PublicCampaignView = ReturnType<typeof serializePublicCampaignView>;
