import type { z } from "zod";
import type { Db } from "@/db";
import { campaignSlugsLike } from "@/db/queries/campaigns";
import { isUniqueViolation } from "@/db/errors";
import { campaigns, type Campaign, type Organization } from "@/db/schema";
import { conflict, fieldError } from "@/lib/errors";
import { mergeTiers } from "@/lib/services/events/ticket-tiers";
import { newId } from "@/lib/ids";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { CAMPAIGN_SLUG_MAX, type createCampaignBody } from "@/lib/schemas/campaigns";
import { nextFreeSlug, slugify } from "@/lib/slug";
import { emitCampaignEvent } from "@/lib/webhooks-out/emit";
import { assertCampaignRules } from "./rules";
import { toColumns } from "./columns";

const DEFAULT_SUGGESTED = [2500, 5000, 10000];

/**
 * Creates a campaign (DRAFT unless asked to publish at once). The slug comes from the title when
 * absent and is de-duplicated within the organization; an explicit slug that is taken is a 409.
 * `campaign.created` (and `campaign.published` when created ACTIVE) and the audit entry commit with the insert.
 */
export async function createCampaign(
  db: Db,
  org: Organization,
  input: z.output<typeof createCampaignBody>,
  audit: AuditContext,
): Promise<Campaign> {
  const { ticketTiers, ...rest } = input;
  const values = toColumns(rest);
  if (ticketTiers) {
    if ((input.type ?? "DONATION") !== "EVENT") throw fieldError("ticketTiers", "Only EVENT campaigns sell tickets", "tickets_not_sold");
    Object.assign(values, mergeTiers(ticketTiers, []));
  }
  await assertCampaignRules(db, org.id, {
    type: input.type ?? "DONATION",
    startDate: values.startDate ?? null,
    endDate: values.endDate ?? null,
    allowCustomAmount: input.allowCustomAmount ?? true,
    allowRecurring: input.allowRecurring ?? true,
    suggestedAmounts: input.suggestedAmounts ?? DEFAULT_SUGGESTED,
    ticketPriceCents: values.ticketPriceCents ?? null,
    ticketCapacity: values.ticketCapacity ?? null,
    parentCampaignId: input.parentCampaignId ?? null,
  });
  for (let attempt = 0; ; attempt++) {
    const slug = input.slug ?? (await freeSlug(db, org.id, input.title));
    try {
      return await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(campaigns)
          .values({ ...values, id: newId("cmp"), orgId: org.id, title: input.title, slug })
          .returning();
        await emitCampaignEvent(tx, "campaign.created", row);
        if (row.status === "ACTIVE") await emitCampaignEvent(tx, "campaign.published", row);
        await recordAudit(tx, audit, {
          orgId: org.id,
          action: "campaign.created",
          target: { type: "campaign", id: row.id },
          data: { title: row.title, slug: row.slug, type: row.type, status: row.status },
        });
        return row;
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.slug || attempt >= 4) throw conflict("campaign_slug_taken", "Campaign slug is already taken in this organization");
    }
  }
}

async function freeSlug(db: Db, orgId: string, title: string): Promise<string> {
  const base = slugify(title, CAMPAIGN_SLUG_MAX) || "campaign";
  return nextFreeSlug(base, await campaignSlugsLike(db, orgId, base), CAMPAIGN_SLUG_MAX);
}
