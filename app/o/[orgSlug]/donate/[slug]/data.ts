import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { headers } from "next/headers";
import { cache } from "react";
import { getDb } from "@/db";
import { getMembershipRole } from "@/db/queries/organizations";
import { countCampaignSupporters, findDraftCampaign, findPublicCampaign } from "@/db/queries/public-campaigns";
import { donations, type Campaign, type Organization } from "@/db/schema";
import { publicCampaignView, type PublicView } from "@/lib/cache/public-campaign-view";
import { getCurrentUser } from "@/lib/auth/server";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { LOAD_HEADER } from "@/lib/overload";
import { brandPalette } from "@/components/donate/brand";
import type { DonateFormCampaign, PaymentConfig } from "@/components/donate/types";

export type DonatePageParams = { orgSlug: string; slug: string };
export type { PublicView };

const plausible = (s: string) => s.length > 0 && s.length <= 100;

export type CampaignRow = { campaign: Campaign; org: Organization; /** A DRAFT shown to a member of its organization. */ preview: boolean };

/**
 * The published campaign and its organization; a DRAFT only for a signed-in member of its
 * organization (its preview: the same URL donors will get once it is published); else null, a
 * 404. Cached per request, so the layout, the page and its metadata share one query.
 */
export const loadCampaign = cache(async (orgSlug: string, slug: string): Promise<CampaignRow | null> => {
  if (!plausible(orgSlug) || !plausible(slug)) return null;
  try {
    return { ...(await findPublicCampaign(await getDb(), { orgSlug, slug })), preview: false };
  } catch (err) {
    if (err instanceof AppError && err.code === "campaign_not_found") return loadDraftPreview(orgSlug, slug);
    throw err;
  }
});

async function loadDraftPreview(orgSlug: string, slug: string): Promise<CampaignRow | null> {
  const user = await getCurrentUser();
  if (!user) return null;
  const db = await getDb();
  const row = await findDraftCampaign(db, { orgSlug, slug });
  if (!row || !(await getMembershipRole(db, row.org.id, user.id))) return null;
  return { ...row, preview: true };
}

/** This request's clock, one reading shared by everything the page renders. */
export const requestNow = cache(() => Date.now());

/**
 * A new ID for each server render of a page: the client can tell a render it has shown before
 * (the browser restoring a page from memory) from a fresh one (components/donate/fresh-on-return.tsx).
 */
export const renderId = cache(() => randomUUID());

/**
 * The donor-facing view (progress, donor roll, leaderboard), as the public API answers it. Under
 * overload (`light`), without the donor roll and leaderboard: see isLightRender.
 */
export const loadView = cache(async (orgSlug: string, slug: string) => {
  const row = await loadCampaign(orgSlug, slug);
  if (!row) return null;
  const light = await isLightRender();
  return { ...row, light, view: await publicCampaignView(await getDb(), row, { social: !light }) };
});

/**
 * Whether the server admitted this page view past its queue (server/overload.ts sets the
 * header, and drops any a client sends): render it without the costly sections.
 */
export const isLightRender = cache(async () => (await headers()).get(LOAD_HEADER) === "shed");

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
export const loadSupporterCount = cache(async (campaignId: string) => countCampaignSupporters(await getDb(), campaignId));

/** A campaign's parent (peer-to-peer pages), for the "Fundraising for …" link. */
export const loadParent = cache(async (parentId: string) => {
  try {
    return await findPublicCampaign(await getDb(), { id: parentId });
  } catch {
    return null;
  }
});

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
