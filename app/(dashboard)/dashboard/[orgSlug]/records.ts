import { notFound } from "next/navigation";
import { cache, type ReactNode } from "react";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { findDonorOfOrg } from "@/db/queries/donor-requests";
import { findOrgRow } from "@/db/queries/rows";
import { findWebhookEndpoint } from "@/db/queries/webhooks";
import { campaigns, donations, outbox } from "@/db/schema";
import { requireOrg } from "@/lib/auth/server";

/*
 * The one record a detail page shows, looked up once per request (cache) by both the page and
 * its segment's layout. The layout runs above the page's loading boundary, so an unknown or
 * foreign ID answers a real 404 before anything streams, not a 200 with a not-found body.
 */

export const campaignOr404 = cache(async (orgSlug: string, campaignId: string) => {
  const ctx = await requireOrg(orgSlug, `/dashboard/${orgSlug}/campaigns/${campaignId}`);
  const db = await getDb();
  const campaign = await findOrgRow(db, campaigns, ctx.org.id, campaignId);
  if (!campaign) notFound();
  return { ...ctx, db, campaign };
});

export const donationOr404 = cache(async (orgSlug: string, donationId: string) => {
  const ctx = await requireOrg(orgSlug, `/dashboard/${orgSlug}/donations/${donationId}`);
  const db = await getDb();
  const [row] = await db
    .select({ donation: donations, campaignTitle: campaigns.title })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(and(eq(donations.id, donationId), eq(donations.orgId, ctx.org.id)))
    .limit(1);
  if (!row) notFound();
  return { ...ctx, db, ...row };
});

export const donorOr404 = cache(async (orgSlug: string, donorId: string) => {
  const ctx = await requireOrg(orgSlug, `/dashboard/${orgSlug}/donors/${donorId}`);
  const db = await getDb();
  // Another organization's donor is as unknown here as one that does not exist.
  const donor = await findDonorOfOrg(db, ctx.org.id, donorId);
  if (!donor) notFound();
  return { ...ctx, db, donor };
});

export const emailOr404 = cache(async (orgSlug: string, emailId: string) => {
  const ctx = await requireOrg(orgSlug, `/dashboard/${orgSlug}/emails/${emailId}`);
  // Outbox IDs are positive integers; anything else is simply not one of this organization's emails.
  if (!/^[1-9]\d{0,15}$/.test(emailId)) notFound();
  const db = await getDb();
  const [row] = await db
    .select()
    .from(outbox)
    .where(and(eq(outbox.id, Number(emailId)), eq(outbox.kind, "email"), eq(outbox.orgId, ctx.org.id)))
    .limit(1);
  if (!row) notFound();
  return { ...ctx, row };
});

export const webhookEndpointOr404 = cache(async (orgSlug: string, endpointId: string) => {
  const ctx = await requireOrg(orgSlug, `/dashboard/${orgSlug}/webhooks/${endpointId}`);
  const endpoint = await findWebhookEndpoint(await getDb(), ctx.org.id, endpointId);
  if (!endpoint) notFound();
  return { ...ctx, endpoint };
});

type RecordProps<K extends string> = { params: Promise<{ orgSlug: string } & Record<K, string>> };

/** Reads the org slug and the record's ID (route parameter `key`) from a detail page's params, then looks it up. */
function fromParams<K extends string, R>(key: K, lookup: (orgSlug: string, id: string) => Promise<R>) {
  return async ({ params }: RecordProps<K>) => {
    const p = await params;
    return lookup(p.orgSlug, p[key]);
  };
}

export const loadCampaign = fromParams("campaignId", campaignOr404);
export const loadDonation = fromParams("donationId", donationOr404);
export const loadDonor = fromParams("donorId", donorOr404);
export const loadEmail = fromParams("emailId", emailOr404);
export const loadWebhookEndpoint = fromParams("endpointId", webhookEndpointOr404);

/**
 * A detail segment's layout: it checks that the record exists above the page's loading boundary,
 * so a missing one answers 404.
 */
export function recordLayout<K extends string>(load: (props: RecordProps<K>) => Promise<unknown>) {
  return async function Layout({ children, params }: RecordProps<K> & { children: ReactNode }) {
    await load({ params });
    return children;
  };
}
