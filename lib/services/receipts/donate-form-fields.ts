import type { Donation, Organization } from "@/db/schema";
import type { Issues } from "@/lib/errors";
import type { CreateDonationInput } from "@/lib/schemas/donations";
import { GIFT_AID_DECLARATION } from "./receipt-content";

/** What the receipt profile asks of the donate form: Gift Aid is for UK organizations (the address: see addressRequired). */
export function assertReceiptFields(issues: Issues, input: CreateDonationInput, org: Pick<Organization, "receiptProfile">): void {
  if (input.giftAid && org.receiptProfile !== "UK") {
    issues.add("giftAid", "Gift Aid applies to UK charities only", "gift_aid_not_offered");
  }
}

/** The receipt's address and the Gift Aid declaration, as given with the gift. */
export function receiptFields(input: CreateDonationInput): Pick<Donation, "receiptAddress" | "giftAid" | "giftAidDeclaration"> {
  const g = input.giftAid;
  return {
    receiptAddress: input.address ?? null,
    giftAid: Boolean(g),
    giftAidDeclaration: g
      ? {
          title: g.title,
          firstName: g.firstName,
          lastName: g.lastName,
          houseNameOrNumber: g.houseNameOrNumber,
          postcode: g.postcode,
          statement: GIFT_AID_DECLARATION,
          declaredAt: new Date().toISOString(),
        }
      : null,
  };
}
