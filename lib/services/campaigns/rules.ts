import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, type CampaignStatus, type CampaignType } from "@/db/schema";
import { conflict, validationError } from "@/lib/api/errors";

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
  if (!TRANSITIONS[from].includes(to)) throw conflict(`Cannot change campaign status from ${from} to ${to}`);
}

/**
 * Rules across fields (contract section 4), checked on the merged result of a create or update
 * so a PATCH of one field cannot leave the campaign inconsistent. All failures are reported
 * together, each under its field.
 */
export async function assertCampaignRules(db: DbOrTx, orgId: string, c: CampaignShape, selfId?: string): Promise<void> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  if (c.startDate && c.endDate && c.endDate <= c.startDate) add("endDate", "Must be after startDate");
  if (c.type === "EVENT") {
    if (c.ticketPriceCents == null) add("ticketPriceCents", "Required for EVENT campaigns");
    if (c.ticketCapacity == null) add("ticketCapacity", "Required for EVENT campaigns");
  }
  if (!c.allowCustomAmount && c.suggestedAmounts.length === 0) {
    add("suggestedAmounts", "At least one suggested amount is needed when custom amounts are off");
  }
  if (c.type === "MEMBERSHIP" && !c.allowRecurring) {
    add("allowRecurring", "MEMBERSHIP campaigns take recurring gifts, so recurring must be allowed");
  }
  if (c.parentCampaignId) {
    const [parent] = await db
      .select({ id: campaigns.id, type: campaigns.type, parentCampaignId: campaigns.parentCampaignId })
      .from(campaigns)
      .where(and(eq(campaigns.id, c.parentCampaignId), eq(campaigns.orgId, orgId)))
      .limit(1);
    if (!parent || parent.type !== "PEER_TO_PEER" || parent.id === selfId || parent.parentCampaignId) {
      add("parentCampaignId", "Must name a PEER_TO_PEER campaign of the same organization");
    }
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}
