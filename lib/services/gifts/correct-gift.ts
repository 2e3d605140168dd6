import type { Db } from "@/db";
import { findOrgCampaign, lockCampaigns, lockDonationById, parentIdsOf, teamIdsOf, updateDonation } from "@/db/queries/gifts";
import { donationEvents, type Donation } from "@/db/schema";
import { conflict, fieldError, notFound } from "@/lib/errors";
import type { CorrectGiftInput } from "@/lib/schemas/gifts";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { assertStaffRecorded } from "./staff-recorded";

/** The corrected fields that change what the gift counts for (its campaign, amount, or day). */
const COUNTED_FIELDS = ["amount", "campaignId", "succeededAt"] as const;

/**
 * Corrects an OFFLINE or IMPORT gift. A change of amount, campaign or date takes the gift out of
 * every aggregate and puts it back with its new values (moveDonation both ways, in one
 * transaction), so campaign, parent, donor, match and per-day totals stay exact; the campaigns
 * involved are locked first, in ID order, so two corrections moving gifts between the same
 * campaigns in opposite directions can't deadlock. The receipt number stays. A corrected gift is
 * announced again as `donation.succeeded` with its new values.
 */
export async function correctGift(db: Db, donation: Donation, input: CorrectGiftInput, audit: AuditContext): Promise<Donation> {
  assertStaffRecorded(donation, "Only offline and imported gifts can be edited");
  return db.transaction(async (tx) => {
    const current = await lockDonationById(tx, donation.id);
    if (!current) throw notFound("donation_not_found", "Donation not found");
    if (current.status !== "SUCCEEDED") throw conflict("donation_not_editable", "A voided gift can't be edited");
    if (input.campaignId && input.campaignId !== current.campaignId && !(await findOrgCampaign(tx, current.orgId, input.campaignId))) {
      throw fieldError("campaignId", "No campaign of this organization has this ID", "campaign_not_found");
    }
    const amount = input.amount ?? current.amount;
    const advantageCents = input.advantageCents ?? current.advantageCents;
    if (advantageCents > amount) throw fieldError("advantageCents", "Must not exceed the amount", "advantage_over_amount");
    const changes: Partial<Donation> = {};
    if (input.amount !== undefined && input.amount !== current.amount) changes.amount = input.amount;
    if (input.campaignId !== undefined && input.campaignId !== current.campaignId) changes.campaignId = input.campaignId;
    if (input.receivedAt !== undefined && input.receivedAt.getTime() !== current.succeededAt?.getTime())
      changes.succeededAt = input.receivedAt;
    if (input.method !== undefined && input.method !== current.method) changes.method = input.method;
    if (input.reference !== undefined && input.reference !== current.reference) changes.reference = input.reference;
    if (input.advantageCents !== undefined && input.advantageCents !== current.advantageCents)
      changes.advantageCents = input.advantageCents;
    if (Object.keys(changes).length === 0) return current;

    const recount = COUNTED_FIELDS.some((k) => k in changes);
    const before = Object.fromEntries(Object.keys(changes).map((k) => [k, current[k as keyof Donation]]));
    let corrected: Donation;
    if (recount) {
      const ids = [current.campaignId, ...(changes.campaignId ? [changes.campaignId] : [])];
      await lockCampaigns(tx, ids);
      await lockCampaigns(tx, await teamIdsOf(tx, ids));
      await lockCampaigns(tx, await parentIdsOf(tx, ids));
      await moveDonation(tx, current, "PENDING", { timelineType: "gift.correction_started" });
      const updated = await updateDonation(tx, current.id, changes);
      corrected = await moveDonation(tx, updated, "SUCCEEDED", { timelineType: "gift.corrected", data: { before, after: changes } });
    } else {
      corrected = await updateDonation(tx, current.id, changes);
      await tx.insert(donationEvents).values({ donationId: current.id, type: "gift.corrected", data: { before, after: changes } });
    }
    await recordAudit(tx, audit, {
      orgId: current.orgId,
      action: "donation.corrected",
      target: { type: "donation", id: current.id },
      data: { before, after: changes },
    });
    return corrected;
  });
}
