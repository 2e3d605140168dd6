import type { Db } from "@/db";
import { lockDonationById, updateDonation } from "@/db/queries/gifts";
import type { Donation } from "@/db/schema";
import { conflict, notFound } from "@/lib/errors";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { assertStaffRecorded } from "./staff-recorded";

/**
 * Voids an OFFLINE or IMPORT gift (a bounced cheque, a mistake): status VOIDED, out of every
 * aggregate (moveDonation), its receipt number kept and its receipt VOID, `donation.voided`
 * emitted and the audit entry written, in one transaction. Voiding is final.
 */
export async function voidGift(db: Db, donation: Donation, reason: string, audit: AuditContext): Promise<Donation> {
  assertStaffRecorded(donation, "Only offline and imported gifts can be voided; refund an online gift instead");
  return db.transaction(async (tx) => {
    const current = await lockDonationById(tx, donation.id);
    if (!current) throw notFound("donation_not_found", "Donation not found");
    if (current.status !== "SUCCEEDED") throw conflict("donation_not_editable", "This gift is already voided");
    const marked = await updateDonation(tx, current.id, { voidReason: reason, voidedAt: new Date() });
    const voided = await moveDonation(tx, marked, "VOIDED", { timelineType: "gift.voided", data: { reason } });
    await recordAudit(tx, audit, {
      orgId: current.orgId,
      action: "donation.voided",
      target: { type: "donation", id: current.id },
      data: { reason, amount: current.amount, receiptNumber: current.receiptNumber },
    });
    return voided;
  });
}
