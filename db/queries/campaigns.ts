import { and, desc, eq, like, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, type Campaign, type CampaignStatus, type CampaignType } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { offsetPage, type OffsetPage } from "./rows";

export async function getCampaignOrThrow(db: DbOrTx, id: string): Promise<Campaign> {
  const [c] = await db.select().from(campaigns).where(eq(campaigns.id, id)).limit(1);
  if (!c) throw notFound("campaign_not_found", "Campaign not found");
  return c;
}

export type CampaignFilter = { status?: CampaignStatus; type?: CampaignType };

/** Newest first (ties broken by ID, so pages never overlap); all of them when `page` is absent. */
export async function listCampaigns(
  db: DbOrTx,
  orgId: string,
  filter: CampaignFilter,
  page?: OffsetPage,
): Promise<{ rows: Campaign[]; total: number }> {
  const conditions: SQL[] = [eq(campaigns.orgId, orgId)];
  if (filter.status) conditions.push(eq(campaigns.status, filter.status));
  if (filter.type) conditions.push(eq(campaigns.type, filter.type));
  const where = and(...conditions);
  const query = db.select().from(campaigns).where(where).orderBy(desc(campaigns.createdAt), desc(campaigns.id));
  if (!page) {
    const rows = await query;
    return { rows, total: rows.length };
  }
  return offsetPage(db, query.$dynamic(), { table: campaigns, where }, page);
}

export async function campaignSlugsLike(db: DbOrTx, orgId: string, base: string): Promise<Set<string>> {
  const rows = await db
    .select({ slug: campaigns.slug })
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), like(campaigns.slug, `${base}%`)));
  return new Set(rows.map((r) => r.slug));
}
