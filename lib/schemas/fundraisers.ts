import { z } from "zod";
import type { PageGiftRow } from "@/db/queries/fundraisers";
import type { Campaign } from "@/db/schema";
import { LOCALES } from "@/lib/i18n/locales";
import { cents, email, imageUrl, iso, pageQuery, plainText } from "./common";

/** `POST /api/public/campaigns/:id/fundraisers`: a supporter asks to start a page (and maybe a team) on a peer-to-peer campaign. */
export const startFundraiserBody = z
  .object({
    email: email.meta({ description: "Where the confirmation link goes; the page is theirs once they use it." }),
    firstName: plainText(100, 1),
    lastName: plainText(100, 1),
    title: plainText(140, 1).optional().meta({ description: "The page's title; without it, \"<firstName>'s fundraiser\"." }),
    story: plainText(20_000).optional().meta({ description: "Why they raise money (HTML is stripped, as in campaign descriptions)." }),
    goalAmountCents: cents.optional(),
    teamId: z.string().min(1).max(100).optional().meta({ description: "Join this team (a team page of the same campaign)." }),
    team: z
      .object({ name: plainText(140, 1) })
      .optional()
      .meta({ description: "Start a team with this name; the supporter's page joins it." }),
    locale: z.enum(LOCALES).optional().meta({ description: "The language of the confirmation email (en, es, fr, de)." }),
  })
  .refine((b) => !(b.teamId && b.team), { message: "Give teamId or team, not both", path: ["team"] })
  .meta({ id: "StartFundraiser" });
export type StartFundraiserInput = z.output<typeof startFundraiserBody>;

export const fundraiserSentAnswer = z
  .object({ sent: z.literal(true).meta({ description: "The confirmation link was emailed." }) })
  .meta({ id: "FundraiserSignUpAnswer" });

/** `PATCH /api/supporter/fundraisers/:id`: what a supporter may change on their own page. */
export const updateFundraiserBody = z
  .object({
    title: plainText(140, 1),
    story: plainText(20_000).nullable(),
    goalAmountCents: cents.nullable(),
    coverImageUrl: imageUrl.nullable(),
    giftEmails: z.boolean().meta({ description: "Email the supporter at each gift and at the goal (default true)." }),
  })
  .partial()
  .meta({ id: "UpdateFundraiser" });
export type UpdateFundraiserInput = z.output<typeof updateFundraiserBody>;

/** One fundraiser page (or team page) as its supporter, staff and the leaderboards see it. */
export const fundraiserPageSchema = z
  .object({
    id: z.string(),
    parentCampaignId: z.string().nullable(),
    title: z.string(),
    slug: z.string(),
    story: z.string().nullable(),
    coverImageUrl: z.string().nullable(),
    status: z.enum(["DRAFT", "ACTIVE", "PAUSED", "ENDED"]),
    moderation: z.enum(["PENDING_APPROVAL", "APPROVED", "HIDDEN"]).nullable(),
    isTeam: z.boolean(),
    teamId: z.string().nullable(),
    fundraiser: z.object({ firstName: z.string(), lastName: z.string() }).nullable(),
    goalAmountCents: z.number().int().nullable(),
    raisedAmountCents: z.number().int(),
    donationCount: z.number().int(),
    giftEmails: z.boolean(),
    pageUrl: z.string().meta({ description: "The page's donate URL (to share)." }),
    createdAt: z.string(),
  })
  .meta({ id: "FundraiserPage" });
export type FundraiserPageView = z.output<typeof fundraiserPageSchema>;

export function serializeFundraiserPage(c: Campaign, baseUrl: string): FundraiserPageView {
  return {
    id: c.id,
    parentCampaignId: c.parentCampaignId,
    title: c.title,
    slug: c.slug,
    story: c.description,
    coverImageUrl: c.coverImageUrl,
    status: c.status,
    moderation: c.moderation,
    isTeam: c.isTeam,
    teamId: c.teamId,
    fundraiser: c.fundraiserFirstName !== null ? { firstName: c.fundraiserFirstName, lastName: c.fundraiserLastName ?? "" } : null,
    goalAmountCents: c.goalAmountCents,
    raisedAmountCents: c.raisedAmountCents,
    donationCount: c.donationCount,
    giftEmails: c.fundraiserEmails,
    pageUrl: `${baseUrl}/donate/${c.slug}`,
    createdAt: iso(c.createdAt)!,
  };
}

/** A leaderboard entry: a page's name, totals and address (public). */
export const leaderboardEntrySchema = z
  .object({
    id: z.string(),
    name: z.string().meta({ description: "The page's title." }),
    slug: z.string(),
    raisedAmountCents: z.number().int(),
    donationCount: z.number().int(),
    goalAmountCents: z.number().int().nullable(),
    pageUrl: z.string(),
  })
  .meta({ id: "LeaderboardEntry" });
export type LeaderboardEntry = z.output<typeof leaderboardEntrySchema>;

export function serializeLeaderboardEntry(
  c: Pick<Campaign, "id" | "title" | "slug" | "raisedAmountCents" | "donationCount" | "goalAmountCents">,
  baseUrl: string,
): LeaderboardEntry {
  return {
    id: c.id,
    name: c.title,
    slug: c.slug,
    raisedAmountCents: c.raisedAmountCents,
    donationCount: c.donationCount,
    goalAmountCents: c.goalAmountCents,
    pageUrl: `${baseUrl}/donate/${c.slug}`,
  };
}

/** `GET /api/public/campaigns/:id/fundraisers`: a leaderboard page ("see all"), or a search by name. */
export const leaderboardQuery = z.object({
  ...pageQuery,
  kind: z.enum(["fundraisers", "teams"]).optional().meta({ description: "Supporters' pages (default) or teams." }),
  q: z.string().trim().max(100).optional().meta({ description: "Only pages whose title or supporter's name contains this." }),
  teamId: z.string().min(1).max(100).optional().meta({ description: "Only this team's members." }),
});

/** A gift to a supporter's page, as its supporter sees it. */
export const fundraiserGiftSchema = z
  .object({
    id: z.string(),
    campaignId: z.string(),
    donorName: z.string().meta({ description: 'The donor\'s name, or "Anonymous".' }),
    amount: z.number().int(),
    currency: z.string(),
    message: z.string().nullable(),
    status: z.enum(["SUCCEEDED", "REFUNDED", "DISPUTED"]),
    createdAt: z.string(),
  })
  .meta({ id: "FundraiserGift" });

/** `POST /api/campaigns/:id/fundraisers/email`: staff's message to every supporter with a page. */
export const emailFundraisersBody = z.object({ subject: plainText(200, 1), body: plainText(10_000, 1) }).meta({ id: "EmailFundraisers" });
export const emailFundraisersAnswer = z.object({ queued: z.number().int() }).meta({ id: "EmailFundraisersAnswer" });

export const staffFundraiserListQuery = z.object({ ...pageQuery });

export function serializeFundraiserGift(g: PageGiftRow): z.output<typeof fundraiserGiftSchema> {
  const name = [g.firstName, g.lastName].filter(Boolean).join(" ");
  return {
    id: g.id,
    campaignId: g.campaignId,
    donorName: g.anonymous || !name ? "Anonymous" : name,
    amount: g.amount,
    currency: g.currency,
    message: g.message,
    status: g.status as "SUCCEEDED" | "REFUNDED" | "DISPUTED",
    createdAt: iso(g.createdAt)!,
  };
}
