import type { Db, Tx } from "@/db";
import { findOrgCampaign, insertDonation } from "@/db/queries/gifts";
import { findDonor } from "@/db/queries/donors";
import { donors, type Donor, type Organization } from "@/db/schema";
import type { Donation } from "@/db/schema";
import { fieldError, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { OfflineGiftInput } from "@/lib/schemas/gifts";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { findOrCreateDonor } from "@/lib/services/donations/upsert-donor";

/**
 * The donor the gift is from: an existing donor of the organization, or matched by email, or
 * created. A donor given without email (cash at the gala) is never matched: each such gift
 * creates a new donor record (source OFFLINE, with the phone and address given), which staff can
 * later complete with an email or merge into another record.
 */
async function donorOf(
  tx: Tx,
  orgId: string,
  donor: OfflineGiftInput["donor"],
): Promise<Pick<Donor, "id" | "email" | "firstName" | "lastName">> {
  if ("id" in donor) {
    const found = await findDonor(tx, donor.id);
    if (!found || found.orgId !== orgId) throw notFound("donor_not_found", "Donor not found");
    return found;
  }
  if (!donor.email) {
    const [created] = await tx
      .insert(donors)
      .values({
        id: newId("dnr"),
        orgId,
        email: null,
        firstName: donor.firstName,
        lastName: donor.lastName,
        phone: donor.phone ?? null,
        address: donor.address,
        source: "OFFLINE",
      })
      .returning({ id: donors.id });
    return { id: created.id, email: null, firstName: donor.firstName, lastName: donor.lastName };
  }
  const { id } = await findOrCreateDonor(tx, orgId, donor.email, donor.firstName, donor.lastName);
  return { id, email: donor.email, firstName: donor.firstName, lastName: donor.lastName };
}

/**
 * Records a gift that did not go through the processor (cheque, cash, transfer, grant, stock):
 * a SUCCEEDED donation with `source: OFFLINE`, `succeededAt = receivedAt`, made SUCCEEDED through
 * moveDonation like a card payment, so it counts in every aggregate, takes a receipt number and
 * emits `donation.succeeded`, all in one transaction with its audit entry. The receipt email goes
 * out only when asked (`sendReceipt`) and the donor has an email.
 */
export async function recordOfflineGift(db: Db, org: Organization, input: OfflineGiftInput, audit: AuditContext): Promise<Donation> {
  if (input.currency && input.currency !== org.currency) {
    throw fieldError("currency", `This organization accepts ${org.currency} only`, "currency_not_accepted", { values: [org.currency] });
  }
  return db.transaction(async (tx) => {
    const campaign = await findOrgCampaign(tx, org.id, input.campaignId);
    if (!campaign) throw notFound("campaign_not_found", "Campaign not found");
    const donor = await donorOf(tx, org.id, input.donor);
    const fields = "id" in input.donor ? null : input.donor;
    const pending = await insertDonation(tx, {
      id: newId("don"),
      orgId: org.id,
      campaignId: campaign.id,
      donorId: donor.id,
      amount: input.amount,
      currency: org.currency,
      email: donor.email,
      firstName: fields?.firstName ?? donor.firstName,
      lastName: fields?.lastName ?? donor.lastName,
      source: "OFFLINE",
      method: input.method,
      reference: input.reference,
      advantageCents: input.advantageCents ?? 0,
      receiptAddress: fields?.address ?? null,
      succeededAt: input.receivedAt,
    });
    const by = audit.actor.type === "user" ? { byUserId: audit.actor.id } : { byApiKeyId: audit.actor.id };
    const gift = await moveDonation(tx, pending, "SUCCEEDED", {
      timelineType: "offline_gift.recorded",
      data: { method: input.method, reference: input.reference, note: input.note, sendReceipt: Boolean(input.sendReceipt), ...by },
      successEmails: Boolean(input.sendReceipt),
    });
    await recordAudit(tx, audit, {
      orgId: org.id,
      action: "donation.recorded",
      target: { type: "donation", id: gift.id },
      data: { amount: gift.amount, currency: gift.currency, method: gift.method, reference: gift.reference, campaignId: gift.campaignId },
    });
    return gift;
  });
}
