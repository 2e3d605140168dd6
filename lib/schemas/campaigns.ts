import { z } from "zod";
import type { Campaign } from "@/db/schema";
import { tiersOf } from "@/lib/tickets/tiers";
import { cents, hexColor, httpUrl, imageUrl, iso, isoDateTime, pageQuery, plainText, slugSchema } from "./common";

export const CAMPAIGN_TYPES = ["DONATION", "PEER_TO_PEER", "EVENT", "MEMBERSHIP"] as const;
export const CAMPAIGN_STATUSES = ["DRAFT", "ACTIVE", "PAUSED", "ENDED"] as const;
export const CAMPAIGN_SLUG_MAX = 80;

/** The highest `maxTicketsPerOrder` a campaign may set (also the most any donation may ask for). */
export const MAX_TICKETS_PER_ORDER_LIMIT = 100;
export const DEFAULT_MAX_TICKETS_PER_ORDER = 10;

const suggestedAmount = z.number().int().min(100).max(2_000_000_000);

/** A ticket tier as the editor sends it: an `id` keeps an existing tier (and its sold seats); none makes a new one. */
export const ticketTierInput = z
  .object({
    id: z.string().min(1).max(100).optional(),
    name: plainText(80, 1),
    priceCents: z.number().int().min(100).max(100_000_000),
    capacity: z.number().int().positive().max(10_000_000),
    fairMarketValueCents: z.number().int().min(0).max(100_000_000).default(0),
    description: plainText(500)
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .refine((t) => t.fairMarketValueCents <= t.priceCents, {
    message: "Must not exceed the price",
    path: ["fairMarketValueCents"],
    params: { code: "fair_market_value_over_price" },
  })
  .meta({ id: "TicketTierInput" });

export const ticketTierSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    priceCents: z.number().int(),
    capacity: z.number().int(),
    sold: z.number().int().meta({ description: "Seats held by paid orders and unpaid orders not yet expired." }),
    fairMarketValueCents: z.number().int().meta({ description: "The value a buyer receives per ticket: the receipt's advantage." }),
    description: z.string().nullable(),
  })
  .meta({ id: "TicketTier" });

/** Every writable campaign field with its own rule; rules across fields live in the service. */
const campaignFields = {
  title: plainText(140, 1),
  slug: slugSchema(1, CAMPAIGN_SLUG_MAX),
  description: plainText(20_000).nullable(),
  type: z.enum(CAMPAIGN_TYPES),
  status: z.enum(CAMPAIGN_STATUSES),
  goalAmountCents: cents.nullable(),
  coverImageUrl: imageUrl.nullable(),
  videoUrl: httpUrl.nullable(),
  color: hexColor.nullable(),
  showDonorRoll: z.boolean(),
  showGoal: z.boolean(),
  startDate: isoDateTime.nullable(),
  endDate: isoDateTime.nullable(),
  suggestedAmounts: z.array(suggestedAmount).max(12),
  allowCustomAmount: z.boolean(),
  allowRecurring: z.boolean(),
  monthlyUpsell: z.boolean().meta({
    description:
      "After a donor chooses a one-time gift, the donate form offers a smaller monthly gift once (default true; only where recurring gifts are allowed).",
  }),
  matchingEnabled: z.boolean(),
  matchingOrgName: plainText(140).nullable(),
  matchingMaxCents: cents.nullable(),
  matchingRatioPct: z.number().int().min(1).max(1000),
  minAmountCents: z.number().int().min(100).max(2_000_000_000).nullable(),
  ticketPriceCents: cents.nullable(),
  ticketCapacity: z.number().int().positive().max(10_000_000).nullable(),
  ticketTiers: z.array(ticketTierInput).min(1).max(20).meta({
    description:
      "EVENT campaigns: 1–20 ticket tiers. Replaces `ticketPriceCents`/`ticketCapacity` (then the lowest price and the total capacity). A tier left out is removed, unless it has sold seats (400).",
  }),
  maxTicketsPerOrder: z
    .number()
    .int()
    .min(1)
    .max(MAX_TICKETS_PER_ORDER_LIMIT)
    .meta({ description: "EVENT campaigns: the most tickets one donation may buy (default 10)." }),
  venue: plainText(300).nullable().meta({
    description: "EVENT campaigns: where it takes place, e.g. `Grand Hall, 12 Harbour St, Boston` (plain text; HTML is removed).",
    example: "Grand Hall, 12 Harbour St, Boston",
  }),
  parentCampaignId: z.string().min(1).max(100).nullable(),
  allowSupporterPages: z
    .boolean()
    .meta({ description: "A PEER_TO_PEER parent: supporters may start their own fundraiser pages from its donate page (default true)." }),
  supporterPagesNeedApproval: z
    .boolean()
    .meta({ description: "A PEER_TO_PEER parent: supporters' new pages wait for staff approval (default false)." }),
  allowTeams: z.boolean().meta({ description: "A PEER_TO_PEER parent: supporters may start and join teams (default true)." }),
  scheduledPublishAt: isoDateTime.nullable(),
  collectAddress: z.boolean().meta({ description: "The donate form asks for the donor's postal address (default false)." }),
};

export const createCampaignBody = z
  .object({
    ...campaignFields,
    title: campaignFields.title,
    status: z.enum(["DRAFT", "ACTIVE"]),
  })
  .partial()
  .required({ title: true })
  .meta({ id: "CreateCampaign" });

export const updateCampaignBody = z.object(campaignFields).partial().meta({ id: "UpdateCampaign" });

export type CampaignInput = z.output<typeof updateCampaignBody>;

export const listCampaignsQuery = z.object({
  ...pageQuery,
  status: z.enum(CAMPAIGN_STATUSES).optional(),
  type: z.enum(CAMPAIGN_TYPES).optional(),
});

export const campaignSchema = z
  .object({
    id: z.string(),
    orgId: z.string(),
    title: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    type: z.enum(CAMPAIGN_TYPES),
    status: z.enum(CAMPAIGN_STATUSES),
    goalAmountCents: z.number().int().nullable(),
    raisedAmountCents: z.number().int(),
    donationCount: z.number().int(),
    matchedAmountCents: z.number().int(),
    coverImageUrl: z.string().nullable(),
    videoUrl: z.string().nullable(),
    color: z.string().nullable(),
    showDonorRoll: z.boolean(),
    showGoal: z.boolean(),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    suggestedAmounts: z.array(z.number().int()),
    allowCustomAmount: z.boolean(),
    allowRecurring: z.boolean(),
    monthlyUpsell: z.boolean(),
    matchingEnabled: z.boolean(),
    matchingOrgName: z.string().nullable(),
    matchingMaxCents: z.number().int().nullable(),
    matchingRatioPct: z.number().int(),
    minAmountCents: z.number().int().nullable(),
    ticketPriceCents: z.number().int().nullable(),
    ticketCapacity: z.number().int().nullable(),
    ticketsSold: z.number().int(),
    ticketTiers: z.array(ticketTierSchema).meta({
      description: "EVENT campaigns: the tiers; a campaign created with `ticketPriceCents`/`ticketCapacity` has one. Others: [].",
    }),
    maxTicketsPerOrder: z.number().int(),
    venue: z.string().nullable().meta({ description: "EVENT campaigns: where it takes place." }),
    collectAddress: z.boolean(),
    parentCampaignId: z.string().nullable(),
    allowSupporterPages: z.boolean(),
    supporterPagesNeedApproval: z.boolean(),
    allowTeams: z.boolean(),
    isTeam: z.boolean().meta({ description: "A supporters' team page: its members' pages count toward it." }),
    teamId: z.string().nullable().meta({ description: "A member page's team page." }),
    fundraiser: z
      .object({ firstName: z.string(), lastName: z.string() })
      .nullable()
      .meta({ description: "A supporter's own page: the supporter's name." }),
    moderation: z
      .enum(["PENDING_APPROVAL", "APPROVED", "HIDDEN"])
      .nullable()
      .meta({ description: "A supporter's page under moderation: waiting for approval, approved, or hidden by staff." }),
    scheduledPublishAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Campaign" });

export type CampaignView = z.output<typeof campaignSchema>;

export function serializeCampaign(c: Campaign): CampaignView {
  return {
    id: c.id,
    orgId: c.orgId,
    title: c.title,
    slug: c.slug,
    description: c.description,
    type: c.type,
    status: c.status,
    goalAmountCents: c.goalAmountCents,
    raisedAmountCents: c.raisedAmountCents,
    donationCount: c.donationCount,
    matchedAmountCents: c.matchedAmountCents,
    coverImageUrl: c.coverImageUrl,
    videoUrl: c.videoUrl,
    color: c.color,
    showDonorRoll: c.showDonorRoll,
    showGoal: c.showGoal,
    startDate: iso(c.startDate),
    endDate: iso(c.endDate),
    suggestedAmounts: c.suggestedAmounts,
    allowCustomAmount: c.allowCustomAmount,
    allowRecurring: c.allowRecurring,
    monthlyUpsell: c.monthlyUpsell,
    matchingEnabled: c.matchingEnabled,
    matchingOrgName: c.matchingOrgName,
    matchingMaxCents: c.matchingMaxCents,
    matchingRatioPct: c.matchingRatioPct,
    minAmountCents: c.minAmountCents,
    ticketPriceCents: c.ticketPriceCents,
    ticketCapacity: c.ticketCapacity,
    ticketsSold: c.ticketsSold,
    ticketTiers: tiersOf(c),
    maxTicketsPerOrder: c.maxTicketsPerOrder,
    venue: c.venue,
    collectAddress: c.collectAddress,
    parentCampaignId: c.parentCampaignId,
    allowSupporterPages: c.allowSupporterPages,
    supporterPagesNeedApproval: c.supporterPagesNeedApproval,
    allowTeams: c.allowTeams,
    isTeam: c.isTeam,
    teamId: c.teamId,
    fundraiser: c.fundraiserFirstName !== null ? { firstName: c.fundraiserFirstName, lastName: c.fundraiserLastName ?? "" } : null,
    moderation: c.moderation,
    scheduledPublishAt: iso(c.scheduledPublishAt),
    createdAt: iso(c.createdAt)!,
    updatedAt: iso(c.updatedAt)!,
  };
}

/** A page on a public leaderboard (the same shape as lib/schemas/fundraisers' LeaderboardEntry, kept here for the editor's client bundle). */
const leaderboardEntry = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  raisedAmountCents: z.number().int(),
  donationCount: z.number().int(),
  goalAmountCents: z.number().int().nullable(),
  pageUrl: z.string(),
});

const publicDonor = z.object({
  name: z.string(),
  amountCents: z.number().int(),
  message: z.string().nullable(),
  createdAt: z.string(),
});

export const publicCampaignViewSchema = z
  .object({
    campaign: campaignSchema
      .omit({ raisedAmountCents: true, donationCount: true, goalAmountCents: true, matchedAmountCents: true, scheduledPublishAt: true })
      .extend({ donateUrl: z.string() }),
    organization: z.object({
      id: z.string(),
      name: z.string(),
      slug: z.string(),
      logoUrl: z.string().nullable(),
      color: z.string().nullable(),
      acceptingDonations: z.boolean(),
      timeZone: z.string().meta({ description: "IANA time zone the campaign's dates (an event's start) are meant in." }),
    }),
    acceptingDonations: z.boolean(),
    progress: z
      .object({
        goalAmountCents: z.number().int().nullable(),
        raisedAmountCents: z.number().int(),
        donationCount: z.number().int(),
        matchedAmountCents: z.number().int(),
        percent: z.number().nullable(),
      })
      .nullable(),
    donorRoll: z.array(publicDonor).nullable(),
    leaderboard: z
      .array(
        z.object({
          id: z.string(),
          title: z.string(),
          slug: z.string(),
          raisedAmountCents: z.number().int(),
          donationCount: z.number().int(),
        }),
      )
      .nullable(),
    fundraisers: z
      .array(leaderboardEntry)
      .nullable()
      .meta({ description: "A peer-to-peer parent: its top 10 supporters' pages, most raised first (the rest: GET …/fundraisers)." }),
    teams: z.array(leaderboardEntry).nullable().meta({ description: "A peer-to-peer parent: its top 10 teams, most raised first." }),
    members: z.array(leaderboardEntry).nullable().meta({ description: "A team page: its members' pages, most raised first." }),
  })
  .meta({ id: "PublicCampaignView" });
