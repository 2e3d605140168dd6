import type { Donation, Donor, Organization, PostalAddress } from "@/db/schema";
import { formatMoney } from "@/lib/money";
import { deductibleCents, receiptStatusOf, type ReceiptStatus } from "@/lib/schemas/donations";

/** Where Canadian donors learn about charities and giving (printed on every CA official receipt, as CRA requires). */
export const CRA_WEB_ADDRESS = "canada.ca/charities-giving";

export const GIFT_AID_DECLARATION =
  "I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax in the current tax year " +
  "than the amount of Gift Aid claimed on all my donations, it is my responsibility to pay any difference.";

export type ReceiptOrg = Pick<
  Organization,
  "name" | "legalName" | "taxId" | "address" | "receiptProfile" | "receiptStatement" | "receiptSignatory" | "slug"
> &
  Partial<Pick<Organization, "timeZone">>;

/** What a receipt reads of its gift. */
export type ReceiptGift = Pick<
  Donation,
  | "currency"
  | "status"
  | "receiptNumber"
  | "succeededAt"
  | "createdAt"
  | "firstName"
  | "lastName"
  | "receiptAddress"
  | "amount"
  | "advantageCents"
  | "giftAid"
  | "method"
  | "reference"
>;

/** What one gift's receipt says, whatever it is printed on (the PDF, the email, the settings preview). */
export type ReceiptContent = {
  title: string;
  orgName: string;
  orgLines: string[];
  status: ReceiptStatus;
  /** Label and value rows, in order. */
  rows: [string, string][];
  /** Paragraphs under the rows: the profile's statements. */
  notes: string[];
  signature: string | null;
};

/** A date as receipts print it, in the organization's time zone. */
const dateIn = (timeZone: string) => (d: Date) =>
  new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "long", day: "numeric" }).format(d);

export const formatAddress = (a: PostalAddress | null): string | null =>
  a ? [a.line1, a.line2, [a.city, a.region, a.postalCode].filter(Boolean).join(" "), a.country].filter(Boolean).join(", ") : null;

const METHOD_LABELS: Record<Donation["method"], string> = {
  CARD: "Card",
  CASH: "Cash",
  CHEQUE: "Cheque",
  BANK_TRANSFER: "Bank transfer",
  DAF: "Donor-advised fund grant",
  STOCK: "Stock",
  IN_KIND: "Gift in kind",
  OTHER: "Other",
};

/**
 * The receipt of one gift under the organization's profile. US: the goods-or-services statement
 * (the deductible amount and the value received when there is an advantage). CA: an official
 * receipt for income tax purposes with every field the Canada Revenue Agency requires (receipt
 * number, dates issued and received, place of issue, donor's name and address, amount, advantage,
 * eligible amount, registration number, signature, CRA's web address). UK: Gift Aid when
 * declared. GENERIC: the gift and the organization's own statement. A refunded or voided gift's
 * receipt says VOID and keeps its number. Issued on the day the gift was recorded or paid.
 */
export function receiptContent(
  org: ReceiptOrg,
  d: ReceiptGift,
  donor: Pick<Donor, "firstName" | "lastName" | "email">,
  campaignTitle: string,
): ReceiptContent {
  const money = (c: number) => formatMoney(c, d.currency);
  const date = dateIn(org.timeZone ?? "UTC");
  const status = receiptStatusOf(d);
  const received = d.succeededAt ?? d.createdAt;
  const issued = d.createdAt > received ? d.createdAt : received;
  const donorName = [d.firstName ?? donor.firstName, d.lastName ?? donor.lastName].filter(Boolean).join(" ") || donor.email || "—";
  const address = formatAddress(d.receiptAddress);
  const orgName = org.legalName || org.name;
  const orgLines = [org.legalName && org.legalName !== org.name ? org.name : null, org.address].filter((l): l is string => Boolean(l));
  const deductible = deductibleCents(d);
  const rows: [string, string][] = [["Receipt number", d.receiptNumber ?? "Not issued"]];
  const notes: string[] = [];
  let title = "Donation receipt";
  let signature: string | null = null;

  switch (org.receiptProfile) {
    case "CA":
      title = "Official receipt for income tax purposes";
      rows.push(
        ["Date issued", date(issued)],
        ["Location issued", org.address ? org.address.split("\n").join(", ") : "—"],
        ["Date donation received", date(received)],
        ["Donor name", donorName],
        ["Donor address", address ?? "—"],
        ["Total amount of gift", money(d.amount)],
        ["Value of advantage", money(d.advantageCents)],
        ["Eligible amount of gift for tax purposes", money(deductible)],
        ["Charity registration number", org.taxId ?? "—"],
      );
      notes.push(`Canada Revenue Agency: ${CRA_WEB_ADDRESS}`);
      signature = org.receiptSignatory ? `Authorized signature: ${org.receiptSignatory}` : "Authorized signature";
      break;
    case "US":
      rows.push(["Date", date(received)], ["Donor", donorName], ["Amount", money(d.amount)]);
      if (d.advantageCents > 0) {
        rows.push(["Value of goods or services provided", money(d.advantageCents)], ["Deductible amount", money(deductible)]);
        notes.push(
          `In return for this contribution you received goods or services valued at ${money(d.advantageCents)}. ` +
            `The amount deductible for federal income tax purposes is limited to the excess of your contribution over that value: ${money(deductible)}.`,
        );
      } else {
        notes.push("No goods or services were provided in exchange for this contribution.");
      }
      if (org.taxId) rows.push(["EIN", org.taxId]);
      break;
    case "UK":
      rows.push(["Date", date(received)], ["Donor", donorName], ["Amount", money(d.amount)]);
      if (d.advantageCents > 0) rows.push(["Value of benefits received", money(d.advantageCents)]);
      if (org.taxId) rows.push(["Registered charity number", org.taxId]);
      rows.push(["Gift Aid", d.giftAid ? "Declared" : "Not declared"]);
      if (d.giftAid) notes.push(`Thank you for your Gift Aid declaration: ${orgName} will reclaim 25p of tax on every £1 you gave.`);
      break;
    case "GENERIC":
      rows.push(["Date", date(received)], ["Donor", donorName], ["Amount", money(d.amount)]);
      if (d.advantageCents > 0) rows.push(["Value received", money(d.advantageCents)], ["Net gift", money(deductible)]);
      if (org.taxId) rows.push(["Tax ID", org.taxId]);
      break;
  }
  rows.push(["Campaign", campaignTitle], ["Payment method", METHOD_LABELS[d.method]]);
  if (d.reference) rows.push(["Reference", d.reference]);
  if (org.receiptStatement) notes.push(org.receiptStatement);
  if (status === "VOID") notes.unshift("VOID: this gift was refunded or voided. This receipt is no longer valid.");
  return { title, orgName, orgLines, status, rows, notes, signature };
}
