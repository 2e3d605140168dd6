import type { Campaign, Organization } from "@/db/schema";

/**
 * Whether the donate form must collect the donor's postal address: the campaign asks for it
 * (`collectAddress`), or the organization's receipts need it (a CA official receipt prints the
 * donor's address). The one place that decides it, for the form and for the API's check of a
 * gift alike.
 */
export function addressRequired(campaign: Pick<Campaign, "collectAddress">, org: Pick<Organization, "receiptProfile">): boolean {
  return campaign.collectAddress || org.receiptProfile === "CA";
}
