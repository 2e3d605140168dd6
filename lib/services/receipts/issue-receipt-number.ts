import type { Tx } from "@/db";
import { setReceiptNumber, takeReceiptSeq } from "@/db/queries/receipts";
import type { Donation } from "@/db/schema";

/** `2031-000042`: the year of the gift's success and its six-digit sequence number in that year. */
export const formatReceiptNumber = (year: number, seq: number) => `${year}-${String(seq).padStart(6, "0")}`;

/**
 * Gives a gift that has just become SUCCEEDED its receipt number, in that transaction: once per
 * gift (a dispute won back keeps the first), never to an imported gift (receipted elsewhere).
 * The year is the UTC calendar year of `succeededAt`. The counter is taken after the campaign's
 * and parent's locks, so the lock order donation → campaign → parent → counter → donor holds.
 */
export async function issueReceiptNumber(tx: Tx, donation: Donation): Promise<Donation> {
  if (donation.receiptNumber || donation.source === "IMPORT" || donation.status !== "SUCCEEDED") return donation;
  const year = (donation.succeededAt ?? new Date()).getUTCFullYear();
  const seq = await takeReceiptSeq(tx, donation.orgId, year);
  return setReceiptNumber(tx, donation.id, formatReceiptNumber(year, seq));
}
