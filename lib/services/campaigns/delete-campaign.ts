import { eq } from "drizzle-orm";
import type { Db } from "@/db";
import { campaigns, donations } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/** Deletes a DRAFT that has never taken a donation (of any status); anything else is a 409. The audit entry commits with it. */
export async function deleteCampaign(db: Db, id: string, audit: AuditContext): Promise<void> {
  await db.transaction(async (tx) => {
    const [c] = await tx
      .select({ status: campaigns.status, orgId: campaigns.orgId, title: campaigns.title, slug: campaigns.slug })
      .from(campaigns)
      .where(eq(campaigns.id, id))
      .for("update");
    if (c.status !== "DRAFT") throw conflict("campaign_not_deletable", "Only a draft campaign can be deleted; end it instead");
    const [d] = await tx.select({ id: donations.id }).from(donations).where(eq(donations.campaignId, id)).limit(1);
    if (d) throw conflict("campaign_not_deletable", "A campaign with donations cannot be deleted; end it instead");
    await tx.delete(campaigns).where(eq(campaigns.id, id));
    await recordAudit(tx, audit, {
      orgId: c.orgId,
      action: "campaign.deleted",
      target: { type: "campaign", id },
      data: { title: c.title, slug: c.slug },
    });
  });
}
