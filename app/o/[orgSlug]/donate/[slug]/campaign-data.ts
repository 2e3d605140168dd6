import { and, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { getMembershipRole } from "@/db/queries/organizations";
import { countCampaignSupporters, findDraftCampaign, findPublicCampaign } from "@/db/queries/public-campaigns";
import { donations, type Campaign, type Organization, type User } from "@/db/schema";
import { publicCampaignView, type PublicView } from "@/lib/cache/public-campaign-view";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { brandPalette } from "@/components/donate/brand";
import type { DonateFormCampaign, PaymentConfig } from "@/components/donate/types";

// The donate pages' data that needs nothing of the request: the App Router's pages reach it
// through data.ts (which adds the request's user and load), the donate page (pages/) directly.

export type DonatePageParams = { orgSlug: string; slug: string };
export type { PublicView };

const plausible = (s: string) => s.length > 0 && s.length <= 100;

export type CampaignRow = { campaign: Campaign; org: Organization; /** A DRAFT shown to a member of its organization. */ preview: boolean };

/**
 * The published campaign and its organization; a DRAFT only for a signed-in member of its
 * organization (its preview: the same URL donors will get once it is published); else null, a
 * 404. `currentUser` is asked only for a draft. For any page: the App Router's go through
 * loadCampaign, the donate page (pages/) passes its request's user.
 */
export async function findCampaignRow(
  orgSlug: string,
  slug: string,
  currentUser: () => Promise<Pick<User, "id"> | null>,
): Promise<CampaignRow | null> {
  if (!plausible(orgSlug) || !plausible(slug)) return null;
  try {
    return { ...(await findPublicCampaign(await getDb(), { orgSlug, slug })), preview: false };
  } catch (err) {
    if (err instanceof AppError && err.code === "campaign_not_found") return findDraftPreview(orgSlug, slug, currentUser);
    throw err;
  }
}

async function findDraftPreview(
  orgSlug: string,
  slug: string,
  currentUser: () => Promise<Pick<User, "id"> | null>,
): Promise<CampaignRow | null> {
  const user = await currentUser();
  if (!user) return null;
  const db = await getDb();
  const row = await findDraftCampaign(db, { orgSlug, slug });
  if (!row || !(await getMembershipRole(db, row.org.id, user.id))) return null;
  return { ...row, preview: true };
}

/** The campaign's donor-facing view, light (without its costly sections) or whole. */
export async function viewOf(row: CampaignRow, light: boolean) {
  return { ...row, light, view: await publicCampaignView(await getDb(), row, { social: !light }) };
}

/**
 * A donation as the thank-you and payment pages show it: only what the donor needs to see, by
 * donation ID *and* campaign, so a guessed or foreign ID shows nothing. Never the email, last
 * name or message.
 */
export async function findDonation(id: string, campaignId: string) {
  if (!/^[\w-]{1,100}$/.test(id)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      amount: donations.amount,
      feeCents: donations.feeCents,
      currency: donations.currency,
      firstName: donations.firstName,
      status: donations.status,
      failureReason: donations.failureReason,
      recurringInterval: donations.recurringInterval,
      tickets: donations.tickets,
    })
    .from(donations)
    .where(and(eq(donations.id, id), eq(donations.campaignId, campaignId)))
    .limit(1);
  return row ?? null;
}

/** How many people have given to the campaign. */
export const loadSupporterCount = async (campaignId: string) => countCampaignSupporters(await getDb(), campaignId);

/** A campaign's parent (peer-to-peer pages), for the "Fundraising for …" link. */
export const loadParent = async (parentId: string) => {
  try {
    return await findPublicCampaign(await getDb(), { id: parentId });
  } catch {
    return null;
  }
};

export const palette = (row: { campaign: Campaign; org: Organization }) => brandPalette(row.campaign.color, row.org.color);

/**
 * Cloudflare Turnstile on the donate form, when `TURNSTILE_SITE_KEY` is set (the server then
 * verifies the token with `TURNSTILE_SECRET_KEY`); the page's CSP nonce goes on its script.
 */
export function captchaConfig(nonce: string | null): { siteKey: string; nonce?: string } | null {
  const siteKey = getEnv().TURNSTILE_SITE_KEY;
  return siteKey ? { siteKey, ...(nonce ? { nonce } : {}) } : null;
}

/**
 * Which payment form the page shows. The server charges through Stripe whenever it has a
 * secret key, so the Payment Element needs the publishable key too; a server with only one of
 * the two keys can't take money, and says so rather than showing a form that would fail.
 */
export function paymentConfig(): PaymentConfig {
  const env = getEnv();
  if (env.paymentsMode === "sandbox") return { mode: "sandbox" };
  if (env.STRIPE_PUBLISHABLE_KEY) return { mode: "stripe", publishableKey: env.STRIPE_PUBLISHABLE_KEY };
  return { mode: "unavailable" };
}

export type Closure = "draft" | "paused" | "ended" | "not-started" | "organization" | "unavailable" | "sold-out" | "no-amounts" | null;

/**
 * Why the page can't take a gift right now, checked the way POST /api/donations checks it
 * (status, start and end dates, organization status and payout account), plus what the form
 * itself needs. An EVENT's start date is the event itself: its tickets sell before it.
 */
export function closureOf({ campaign, org }: { campaign: Campaign; org: Organization }, payment: PaymentConfig, now = Date.now()): Closure {
  if (campaign.status === "DRAFT") return "draft";
  if (campaign.status === "ENDED" || (campaign.endDate !== null && campaign.endDate.getTime() <= now)) return "ended";
  if (campaign.status !== "ACTIVE") return "paused";
  if (campaign.type !== "EVENT" && campaign.startDate !== null && campaign.startDate.getTime() > now) return "not-started";
  if (org.status !== "ACTIVE" || !org.processorAccountId) return "organization";
  if (payment.mode === "unavailable") return "unavailable";
  if (campaign.type === "EVENT") {
    if (campaign.ticketPriceCents === null) return "no-amounts";
    if (campaign.ticketCapacity !== null && campaign.ticketsSold >= campaign.ticketCapacity) return "sold-out";
  } else if (campaign.suggestedAmounts.length === 0 && !campaign.allowCustomAmount) {
    return "no-amounts";
  }
  return null;
}

/** What the donate form needs of a public campaign (the full page and the embed alike). */
export function donateFormCampaign(c: PublicView["campaign"], org: Pick<Organization, "currency" | "receiptProfile">): DonateFormCampaign {
  return {
    currency: org.currency,
    receiptProfile: org.receiptProfile,
    id: c.id,
    title: c.title,
    type: c.type,
    suggestedAmounts: c.suggestedAmounts,
    allowCustomAmount: c.allowCustomAmount,
    allowRecurring: c.allowRecurring,
    monthlyUpsell: c.monthlyUpsell,
    minAmountCents: c.minAmountCents,
    ticketPriceCents: c.ticketPriceCents,
    ticketCapacity: c.ticketCapacity,
    ticketsSold: c.ticketsSold,
    ticketTiers: c.ticketTiers,
    maxTicketsPerOrder: c.maxTicketsPerOrder,
    matchingEnabled: c.matchingEnabled,
    matchingOrgName: c.matchingOrgName,
    matchingRatioPct: c.matchingRatioPct,
    showDonorRoll: c.showDonorRoll,
    collectAddress: c.collectAddress,
  };
}
