import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import { belongsTo, timestamps, timestamptz } from "./columns";
import { organizations } from "./organizations";

export const campaignTypeEnum = pgEnum("campaign_type", ["DONATION", "PEER_TO_PEER", "EVENT", "MEMBERSHIP"]);
export const campaignStatusEnum = pgEnum("campaign_status", ["DRAFT", "ACTIVE", "PAUSED", "ENDED"]);
export type CampaignType = (typeof campaignTypeEnum.enumValues)[number];
export type CampaignStatus = (typeof campaignStatusEnum.enumValues)[number];

/**
 * One ticket tier of an EVENT campaign. `sold` counts the seats of the donations that hold them
 * (PENDING, SUCCEEDED, DISPUTED), like the campaign's `ticketsSold`; it only moves under the
 * campaign's row lock, so no tier is ever oversold.
 */
export type TicketTier = {
  id: string;
  name: string;
  priceCents: number;
  capacity: number;
  sold: number;
  fairMarketValueCents: number;
  description: string | null;
};

export const campaigns = pgTable(
  "campaigns",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    title: text().notNull(),
    slug: text().notNull(),
    description: text(),
    type: campaignTypeEnum().notNull().default("DONATION"),
    status: campaignStatusEnum().notNull().default("DRAFT"),
    goalAmountCents: bigint({ mode: "number" }),
    // Running aggregates, maintained only by atomic SQL in the transaction of the event that moves them.
    raisedAmountCents: bigint({ mode: "number" }).notNull().default(0),
    donationCount: integer().notNull().default(0),
    matchedAmountCents: bigint({ mode: "number" }).notNull().default(0),
    ticketsSold: integer().notNull().default(0),
    coverImageUrl: text(),
    videoUrl: text(),
    color: text(),
    showDonorRoll: boolean().notNull().default(true),
    showGoal: boolean().notNull().default(true),
    startDate: timestamptz(),
    endDate: timestamptz(),
    suggestedAmounts: integer()
      .array()
      .notNull()
      .default(sql`'{2500,5000,10000}'::integer[]`),
    allowCustomAmount: boolean().notNull().default(true),
    allowRecurring: boolean().notNull().default(true),
    /** After a one-time choice the donate form offers a smaller monthly gift once (where recurring gifts are allowed). */
    monthlyUpsell: boolean().notNull().default(true),
    matchingEnabled: boolean().notNull().default(false),
    matchingOrgName: text(),
    matchingMaxCents: bigint({ mode: "number" }),
    matchingRatioPct: integer().notNull().default(100),
    minAmountCents: integer(),
    ticketPriceCents: integer(),
    ticketCapacity: integer(),
    /**
     * The tiers of an EVENT campaign (1–20); null for a campaign created the old way, whose single
     * tier is `ticketPriceCents` × `ticketCapacity`. With tiers, `ticketCapacity` is the sum of
     * their capacities and `ticketPriceCents` the lowest price.
     */
    ticketTiers: jsonb().$type<TicketTier[]>(),
    /** The donate form asks for the donor's postal address (see addressRequired). */
    collectAddress: boolean().notNull().default(false),
    /** The most tickets one donation may buy. */
    maxTicketsPerOrder: integer().notNull().default(10),
    /** EVENT campaigns: where it takes place (plain text, shown to donors). */
    venue: text(),
    parentCampaignId: text().references((): AnyPgColumn => campaigns.id, { onDelete: "set null" }),
    /** A peer-to-peer parent: supporters may start their own pages from its donate page. */
    allowSupporterPages: boolean().notNull().default(true),
    /** A peer-to-peer parent: supporters' new pages wait (DRAFT, PENDING_APPROVAL) until staff approve them. */
    supporterPagesNeedApproval: boolean().notNull().default(false),
    /** A peer-to-peer parent: supporters may start and join teams. */
    allowTeams: boolean().notNull().default(true),
    /** A team page: its members' pages name it in `teamId`, and their gifts count toward it too. */
    isTeam: boolean().notNull().default(false),
    /** A member page's team (a team page of the same parent). */
    teamId: text().references((): AnyPgColumn => campaigns.id, { onDelete: "set null" }),
    /**
     * A supporter's page: whose it is (the donor record the donor cookie signs in). No foreign
     * key in the schema (donations.ts imports this file); donor records are never deleted, only erased.
     */
    fundraiserDonorId: text(),
    fundraiserFirstName: text(),
    fundraiserLastName: text(),
    /** A supporter's page under moderation: PENDING_APPROVAL until approved, HIDDEN when staff hid it; null otherwise. */
    moderation: text().$type<"PENDING_APPROVAL" | "APPROVED" | "HIDDEN">(),
    /** A supporter's page: email its supporter at each gift and at the goal (they may opt out). */
    fundraiserEmails: boolean().notNull().default(true),
    scheduledPublishAt: timestamptz(),
    /** The processor's Product for this campaign's subscriptions (price_data needs one), created lazily. */
    processorProductId: text(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("campaigns_org_slug_key").on(t.orgId, t.slug),
    index("campaigns_org_created_idx").on(t.orgId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("campaigns_parent_idx").on(t.parentCampaignId),
    index("campaigns_team_idx").on(t.teamId),
    index("campaigns_fundraiser_idx").on(t.fundraiserDonorId),
    // The parent's leaderboards: its pages by amount raised.
    index("campaigns_parent_raised_idx").on(t.parentCampaignId, t.isTeam, t.raisedAmountCents.desc(), t.id),
    index("campaigns_scheduled_idx")
      .on(t.scheduledPublishAt)
      .where(sql`${t.status} = 'DRAFT'`),
    index("campaigns_end_idx")
      .on(t.endDate)
      .where(sql`${t.status} in ('ACTIVE', 'PAUSED')`),
    check("campaigns_aggregates_non_negative", sql`${t.raisedAmountCents} >= 0 and ${t.donationCount} >= 0 and ${t.ticketsSold} >= 0`),
  ],
);

/** Goal thresholds (25/50/75/100 %) a campaign has crossed; the primary key makes each alert once. */
export const campaignMilestones = pgTable(
  "campaign_milestones",
  {
    campaignId: belongsTo(() => campaigns.id),
    thresholdPct: integer().notNull(),
    reachedAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.thresholdPct] })],
);

export type Campaign = typeof campaigns.$inferSelect;

/**
 * A supporter's request to start a fundraiser page, waiting for its emailed confirmation link:
 * what they asked for, and the link's token (only its SHA-256). Using the link (once, within 24
 * hours) creates the page; `campaignId` names it afterwards.
 */
export const fundraiserSignUps = pgTable(
  "fundraiser_sign_ups",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    parentCampaignId: belongsTo(() => campaigns.id),
    email: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    title: text(),
    story: text(),
    goalAmountCents: bigint({ mode: "number" }),
    teamId: text(),
    teamName: text(),
    locale: text(),
    tokenHash: text().notNull(),
    expiresAt: timestamptz().notNull(),
    usedAt: timestamptz(),
    campaignId: text(),
    createdAt: timestamptz().notNull().defaultNow(),
  },
  (t) => [uniqueIndex("fundraiser_sign_ups_token_key").on(t.tokenHash), index("fundraiser_sign_ups_expires_idx").on(t.expiresAt)],
);

export type FundraiserSignUp = typeof fundraiserSignUps.$inferSelect;
