import type { DonorRollRow, LeaderboardRow } from "@/db/queries/public-campaigns";
import type { Campaign, Organization } from "@/db/schema";
import { acceptsDonations } from "@/lib/accepting-donations";
import { serializeCampaign } from "./campaigns";
import { iso } from "./common";
import { serializeLeaderboardEntry } from "./fundraisers";
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
  {
    donorRoll,
    leaderboard,
    fundraisers = null,
    teams = null,
    members = null,
  }: {
    donorRoll: DonorRollRow[] | null;
    leaderboard: LeaderboardRow[] | null;
    fundraisers?: Campaign[] | null;
    teams?: Campaign[] | null;
    members?: Campaign[] | null;
  },
) {
  const base = donateBaseUrl(org);
  const entries = (rows: Campaign[] | null) => rows?.map((r) => serializeLeaderboardEntry(r, base)) ?? null;
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
      timeZone: org.timeZone,
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
    fundraisers: entries(fundraisers),
    teams: entries(teams),
    members: entries(members),
  };
}

export type PublicCampaignView = ReturnType<typeof serializePublicCampaignView>;
