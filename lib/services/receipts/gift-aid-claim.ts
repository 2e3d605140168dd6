import type { DbOrTx } from "@/db";
import { listGiftAidGifts } from "@/db/queries/receipts";
import type { Donation } from "@/db/schema";
import { CSV_BOM, csvLine, minorUnitsToDecimal } from "@/lib/services/exports/csv";

/** The columns of HMRC's Gift Aid schedule, in its order. */
export const GIFT_AID_COLUMNS = [
  "Title",
  "First name or initial",
  "Last name",
  "House name or number",
  "Postcode",
  "Aggregated donations",
  "Sponsored event",
  "Donation date",
  "Amount",
] as const;

/** DD/MM/YY, the schedule's date format (UTC day). */
const scheduleDate = (d: Date) =>
  `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${String(d.getUTCFullYear() % 100).padStart(2, "0")}`;

function row(d: Donation): string {
  const decl = d.giftAidDeclaration;
  return csvLine([
    decl?.title ?? "",
    decl?.firstName ?? d.firstName,
    decl?.lastName ?? d.lastName,
    decl?.houseNameOrNumber ?? "",
    decl?.postcode ?? "",
    "",
    "",
    scheduleDate(d.succeededAt!),
    minorUnitsToDecimal(d.amount, d.currency),
  ]);
}

/**
 * The Gift Aid claim of an organization over [from, to) as CSV in the column order of HMRC's
 * schedule: one line per SUCCEEDED gift made with a declaration (refunded, disputed and voided
 * gifts are not claimable), each donor's details as declared with the gift.
 */
export async function giftAidClaimCsv(db: DbOrTx, orgId: string, from: Date, to: Date): Promise<string> {
  const gifts = await listGiftAidGifts(db, orgId, from, to);
  return CSV_BOM + csvLine([...GIFT_AID_COLUMNS]) + gifts.map(row).join("");
}
