import type { Db } from "@/db";
import { listDonationsPage, type DonationCursor, type DonationFilter, type DonationListRow } from "@/db/queries/donations";
import type { Organization } from "@/db/schema";
import { shownEmail } from "@/lib/donor-erasure";
import { iso } from "@/lib/schemas/common";
import { csvStream, minorUnitsToDecimal, type CsvColumn } from "./csv";
import { copyDonationsCsv, postgresClientOf } from "./donations-copy";

/** Rows per keyset batch: big enough to keep round trips few, small enough to keep memory flat. */
export const EXPORT_BATCH_SIZE = 2000;

const money = (cents: number, currency: string) => minorUnitsToDecimal(cents, currency);

/** The columns of the donations export, named like the API's Donation fields; money as decimal and as cents. */
export const DONATION_CSV_COLUMNS: CsvColumn<DonationListRow>[] = [
  { header: "id", value: (r) => r.donation.id },
  { header: "createdAt", value: (r) => iso(r.donation.createdAt) },
  { header: "succeededAt", value: (r) => iso(r.donation.succeededAt) },
  { header: "status", value: (r) => r.donation.status },
  { header: "amount", value: (r) => money(r.donation.amount, r.donation.currency) },
  { header: "amountCents", value: (r) => r.donation.amount },
  { header: "currency", value: (r) => r.donation.currency },
  { header: "fee", value: (r) => money(r.donation.feeCents, r.donation.currency) },
  { header: "feeCents", value: (r) => r.donation.feeCents },
  { header: "matchedAmount", value: (r) => money(r.donation.matchedAmountCents, r.donation.currency) },
  { header: "matchedAmountCents", value: (r) => r.donation.matchedAmountCents },
  // An erased donor's placeholder address is nobody's: the cell stays empty.
  { header: "email", value: (r) => shownEmail(r.donation.email) },
  { header: "firstName", value: (r) => r.donation.firstName },
  { header: "lastName", value: (r) => r.donation.lastName },
  { header: "anonymous", value: (r) => r.donation.anonymous },
  { header: "campaignId", value: (r) => r.donation.campaignId },
  { header: "campaignTitle", value: (r) => r.campaignTitle },
  { header: "donorId", value: (r) => r.donation.donorId },
  { header: "recurringInterval", value: (r) => r.donation.recurringInterval },
  { header: "recurringPlanId", value: (r) => r.donation.recurringPlanId },
  { header: "isRenewal", value: (r) => r.donation.isRenewal },
  { header: "tickets", value: (r) => r.donation.tickets },
  { header: "coverFees", value: (r) => r.donation.coverFees },
  { header: "message", value: (r) => r.donation.message },
  { header: "dedicationType", value: (r) => r.donation.dedication?.type ?? null },
  { header: "dedicationHonoreeName", value: (r) => r.donation.dedication?.honoreeName ?? null },
  { header: "dedicationNotifyEmail", value: (r) => r.donation.dedication?.notifyEmail ?? null },
  { header: "dedicationMessage", value: (r) => r.donation.dedication?.message ?? null },
  { header: "paymentIntentId", value: (r) => r.donation.paymentIntentId },
  { header: "failureReason", value: (r) => r.donation.failureReason },
  { header: "disputeReason", value: (r) => r.donation.disputeReason },
  { header: "updatedAt", value: (r) => iso(r.donation.updatedAt) },
  // Where the gift came from and its receipt, for the books (offline gifts and imports included).
  { header: "source", value: (r) => r.donation.source },
  { header: "method", value: (r) => r.donation.method },
  { header: "reference", value: (r) => r.donation.reference },
  { header: "receiptNumber", value: (r) => r.donation.receiptNumber },
  // The monthly upsell on the donate form: OFFERED, ACCEPTED, DECLINED, or empty when not offered.
  { header: "upsell", value: (r) => r.donation.upsell },
];

/**
 * The organization's donations matching `filter` (the list's filters, the list's order: newest
 * first) as a CSV stream, read in keyset batches of EXPORT_BATCH_SIZE. The first batch is read
 * before answering, so a database failure is still a JSON error; each later one when the client
 * has taken the previous. Batches are separate statements (no transaction is held open for the
 * length of a download), and the keyset cursor makes every row that exists throughout appear
 * exactly once. The path PGlite takes, and the reference the COPY path is tested against.
 */
export async function exportDonationsCsvInBatches(db: Db, org: Organization, filter: DonationFilter, batchSize = EXPORT_BATCH_SIZE) {
  const fetch = (cursor: DonationCursor | null) => listDonationsPage(db, org.id, filter, { limit: batchSize, cursor });
  return csvStream(DONATION_CSV_COLUMNS, await fetch(null), fetch, "donations");
}

/**
 * The donations export: on PostgreSQL written by Postgres itself (`COPY … TO STDOUT`, the same
 * bytes, see donations-copy.ts), on PGlite in keyset batches (`exportDonationsCsvInBatches`).
 */
export async function exportDonationsCsv(db: Db, org: Organization, filter: DonationFilter) {
  const client = postgresClientOf(db);
  if (!client) return exportDonationsCsvInBatches(db, org, filter);
  return copyDonationsCsv(
    client,
    org,
    filter,
    DONATION_CSV_COLUMNS.map((c) => c.header),
  );
}
