import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, type CampaignStatus, type CampaignType } from "@/db/schema";
import { conflict, Issues } from "@/lib/errors";

/** The fields the cross-field rules read, as they will be after the write. */
export type CampaignShape = {
  type: CampaignType;
  startDate: Date | null;
  endDate: Date | null;
  allowCustomAmount: boolean;
  allowRecurring: boolean;
  suggestedAmounts: number[];
  ticketPriceCents: number | null;
  ticketCapacity: number | null;
  parentCampaignId: string | null;
};

const TRANSITIONS: Record<CampaignStatus, CampaignStatus[]> = {
  DRAFT: ["ACTIVE"],
  ACTIVE: ["PAUSED", "ENDED"],
  PAUSED: ["ACTIVE", "ENDED"],
  ENDED: [],
};

/** DRAFT→ACTIVE, ACTIVE↔PAUSED, ACTIVE|PAUSED→ENDED; ENDED is final. Anything else is a 409. */
export function assertStatusChange(from: CampaignStatus, to: CampaignStatus): void {
  if (from === to) return;
  if (!TRANSITIONS[from].includes(to))
    throw conflict("campaign_status_change_not_allowed", `Cannot change campaign status from ${from} to ${to}`);
}

/**
 * Rules across fields, checked on the merged result of a create or update so a PATCH of one
 * field cannot leave the campaign inconsistent. All failures are reported together, each under
 * its field with a code.
 */
export async function assertCampaignRules(db: DbOrTx, orgId: string, c: CampaignShape, selfId?: string): Promise<void> {
  const issues = new Issues();

  if (c.startDate && c.endDate && c.endDate <= c.startDate) {
    issues.add("endDate", "Must be after startDate", "end_not_after_start", { after: "startDate" });
  }
  if (c.type === "EVENT") {
    if (c.ticketPriceCents == null) issues.add("ticketPriceCents", "Required for EVENT campaigns", "required_for_event");
    if (c.ticketCapacity == null) issues.add("ticketCapacity", "Required for EVENT campaigns", "required_for_event");
  }
  if (!c.allowCustomAmount && c.suggestedAmounts.length === 0) {
    issues.add("suggestedAmounts", "At least one suggested amount is needed when custom amounts are off", "suggested_amounts_required");
  }
  if (c.type === "MEMBERSHIP" && !c.allowRecurring) {
    issues.add(
      "allowRecurring",
      "MEMBERSHIP campaigns take recurring gifts, so recurring must be allowed",
      "recurring_required_for_membership",
    );
  }
  if (c.parentCampaignId) {
    const [parent] = await db
      .select({ id: campaigns.id, type: campaigns.type, parentCampaignId: campaigns.parentCampaignId })
      .from(campaigns)
      .where(and(eq(campaigns.id, c.parentCampaignId), eq(campaigns.orgId, orgId)))
      .limit(1);
    if (!parent || parent.type !== "PEER_TO_PEER" || parent.id === selfId || parent.parentCampaignId) {
      issues.add("parentCampaignId", "Must name a PEER_TO_PEER campaign of the same organization", "invalid_parent_campaign");
    }
  }
  issues.throwIfAny();
}
