import { and, asc, eq, inArray, isNotNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, donations, type Campaign, type Donation } from "@/db/schema";

/** The organization's campaign with that ID, or undefined (another organization's is not found either). */
export async function findOrgCampaign(db: DbOrTx, orgId: string, id: string): Promise<Campaign | undefined> {
  const [c] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.id, id), eq(campaigns.orgId, orgId)))
    .limit(1);
  return c;
}

/**
 * Locks campaign rows in ID order (FOR NO KEY UPDATE, what their UPDATEs take), so a change
 * that touches several campaigns can't deadlock with another taking them in the other order.
 */
export async function lockCampaigns(tx: DbOrTx, ids: string[]): Promise<Campaign[]> {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(campaigns)
    .where(inArray(campaigns.id, [...new Set(ids)]))
    .orderBy(asc(campaigns.id))
    .for("no key update");
}

/** The parent campaigns of these campaigns (peer-to-peer pages), IDs only. */
export async function parentIdsOf(db: DbOrTx, ids: string[]): Promise<string[]> {
  const rows = await db
    .select({ parent: campaigns.parentCampaignId })
    .from(campaigns)
    .where(and(inArray(campaigns.id, ids), isNotNull(campaigns.parentCampaignId)));
  return rows.map((r) => r.parent!);
}

/** The team pages of these campaigns (supporters' pages in a team), IDs only. */
export async function teamIdsOf(db: DbOrTx, ids: string[]): Promise<string[]> {
  const rows = await db
    .select({ team: campaigns.teamId })
    .from(campaigns)
    .where(and(inArray(campaigns.id, ids), isNotNull(campaigns.teamId)));
  return rows.map((r) => r.team!);
}

export async function insertDonation(tx: DbOrTx, row: typeof donations.$inferInsert): Promise<Donation> {
  const [d] = await tx.insert(donations).values(row).returning();
  return d;
}

export async function updateDonation(tx: DbOrTx, id: string, set: Partial<typeof donations.$inferInsert>): Promise<Donation> {
  const [d] = await tx
    .update(donations)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(donations.id, id))
    .returning();
  return d;
}

export async function lockDonationById(tx: DbOrTx, id: string): Promise<Donation | undefined> {
  const [d] = await tx.select().from(donations).where(eq(donations.id, id)).limit(1).for("update");
  return d;
}
