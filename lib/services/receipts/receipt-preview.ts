import type { Organization } from "@/db/schema";
import { RECEIPT_PROFILES } from "@/lib/schemas/organizations";
import { receiptContent, type ReceiptContent, type ReceiptGift, type ReceiptOrg } from "./receipt-content";

type Profile = (typeof RECEIPT_PROFILES)[number];

/**
 * The receipt of a sample gift (a $150 cheque with $50 of advantage, Gift Aid declared) under each
 * receipt profile, with the organization's own name, tax ID, address and statement: what the
 * settings page previews before the profile is picked.
 */
export function receiptPreviews(org: ReceiptOrg & Pick<Organization, "currency">, now = new Date()): Record<Profile, ReceiptContent> {
  const year = now.getUTCFullYear();
  const sample: ReceiptGift = {
    currency: org.currency,
    status: "SUCCEEDED",
    receiptNumber: `${year}-000123`,
    succeededAt: now,
    createdAt: now,
    firstName: "Jean",
    lastName: "Tremblay",
    receiptAddress: { line1: "400 Main Street", line2: null, city: "Springfield", region: null, postalCode: "12345", country: "US" },
    amount: 15_000,
    advantageCents: 5_000,
    giftAid: true,
    method: "CHEQUE",
    reference: "Cheque 1042",
  };
  const donor = { firstName: "Jean", lastName: "Tremblay", email: "jean@example.org" };
  return Object.fromEntries(
    RECEIPT_PROFILES.map((profile) => [profile, receiptContent({ ...org, receiptProfile: profile }, sample, donor, "Annual appeal")]),
  ) as Record<Profile, ReceiptContent>;
}
