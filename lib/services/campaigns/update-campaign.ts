import { eq, sql } from "drizzle-orm";
import { dropAllCampaignViews } from "@/lib/cache/public-campaign-view";
import type { Db, Tx } from "@/db";
import { isUniqueViolation } from "@/db/errors";
import { campaigns, type Campaign } from "@/db/schema";
import { conflict, fieldError } from "@/lib/errors";
import { mergeTiers, tiersOf } from "@/lib/services/events/ticket-tiers";
import type { CampaignInput } from "@/lib/schemas/campaigns";
import { changedFields, recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { emitCampaignEvent } from "@/lib/webhooks-out/emit";
import { toColumns } from "./columns";
import { assertCampaignRules, assertStatusChange } from "./rules";

/**
 * Applies a partial update. The row is locked for the duration, so the status transition and
 * the cross-field rules are checked against the state actually being changed. `campaign.updated`
 * (plus `campaign.published` / `campaign.ended` on those transitions) commits with the change, and so
 * do its audit entries: `campaign.status_changed` for a new status, `campaign.updated` for other fields.
 */
export async function updateCampaign(db: Db, id: string, patch: CampaignInput, audit: AuditContext): Promise<Campaign> {
  try {
    const updated = await db.transaction(async (tx) => {
      const [current] = await tx.select().from(campaigns).where(eq(campaigns.id, id)).for("update");
      const { ticketTiers, ...rest } = patch;
      const values = toColumns(rest);
      const type = patch.type ?? current.type;
      if (ticketTiers) {
        if (type !== "EVENT") throw fieldError("ticketTiers", "Only EVENT campaigns sell tickets", "tickets_not_sold");
        Object.assign(values, mergeTiers(ticketTiers, tiersOf(current)));
      } else if (current.ticketTiers && (values.ticketPriceCents != null || values.ticketCapacity != null)) {
        // The old fields edit a campaign's single tier; several tiers are edited as tiers.
        if (current.ticketTiers.length !== 1)
          throw fieldError("ticketTiers", "This event has several ticket tiers: edit the tiers instead", "edit_tiers");
        const [tier] = current.ticketTiers;
        Object.assign(
          values,
          mergeTiers(
            [
              {
                ...tier,
                priceCents: values.ticketPriceCents ?? tier.priceCents,
                capacity: values.ticketCapacity ?? tier.capacity,
                fairMarketValueCents: Math.min(tier.fairMarketValueCents, values.ticketPriceCents ?? tier.priceCents),
              },
            ],
            current.ticketTiers,
          ),
        );
      }
      if (patch.status) assertStatusChange(current.status, patch.status);
      if (patch.type && patch.type !== current.type && current.status !== "DRAFT") {
        throw conflict("campaign_type_locked", "A campaign's type can only change while it is a draft");
      }
      // A page's counted gifts are part of its parent's totals; moving it would strand them there.
      if (patch.parentCampaignId !== undefined && patch.parentCampaignId !== current.parentCampaignId && current.donationCount > 0) {
        throw conflict("campaign_parent_locked", "A fundraiser page that has donations cannot move to another parent campaign");
      }
      const next = { ...current, ...values } as Campaign;
      if (next.ticketCapacity != null && next.ticketCapacity < current.ticketsSold) {
        throw fieldError("ticketCapacity", `Cannot be below the ${current.ticketsSold} tickets already sold`, "capacity_below_sold", {
          minimum: current.ticketsSold,
        });
      }
      await assertCampaignRules(tx, current.orgId, next, current.id);
      if (Object.keys(values).length === 0) return current;
      const [row] = await tx
        .update(campaigns)
        .set({ ...values, updatedAt: sql`now()` })
        .where(eq(campaigns.id, id))
        .returning();
      await emitCampaignEvent(tx, "campaign.updated", row);
      if (current.status === "DRAFT" && row.status === "ACTIVE") await emitCampaignEvent(tx, "campaign.published", row);
      if (current.status !== "ENDED" && row.status === "ENDED") await emitCampaignEvent(tx, "campaign.ended", row);
      await auditUpdate(tx, audit, current, values);
      return row;
    });
    // This process's public views show the change at once (a published draft, a new slug or title;
    // edits are rare next to views, so all go); other processes within their second.
    dropAllCampaignViews();
    return updated;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("campaign_slug_taken", "Campaign slug is already taken in this organization");
    throw err;
  }
}

/** One entry per kind of change, and none when the patch only repeats what the campaign already holds. */
async function auditUpdate(tx: Tx, audit: AuditContext, current: Campaign, values: Partial<Campaign>) {
  const { status, ...fields } = changedFields(current, values);
  const target = { type: "campaign", id: current.id } as const;
  if (status !== undefined) {
    await recordAudit(tx, audit, {
      orgId: current.orgId,
      action: "campaign.status_changed",
      target,
      data: { from: current.status, to: status },
    });
  }
  if (Object.keys(fields).length > 0) {
    await recordAudit(tx, audit, { orgId: current.orgId, action: "campaign.updated", target, data: { changes: fields } });
  }
}
