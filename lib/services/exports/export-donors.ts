import type { Db } from "@/db";
import { listDonorsAfter, type DonorCursor, type DonorOrder } from "@/db/queries/donors";
import type { Donor, Organization } from "@/db/schema";
import { shownEmail } from "@/lib/donor-erasure";
import { iso } from "@/lib/schemas/common";
import { csvStream, minorUnitsToDecimal, type CsvColumn } from "./csv";
import { EXPORT_BATCH_SIZE } from "./export-donations";

/** The columns of the donors export; totals in the organization's currency, as decimal and as cents. */
export function donorCsvColumns(currency: string): CsvColumn<Donor>[] {
  return [
    { header: "id", value: (d) => d.id },
    { header: "email", value: (d) => (d.erasedAt ? null : shownEmail(d.email)) },
    { header: "firstName", value: (d) => d.firstName },
    { header: "lastName", value: (d) => d.lastName },
    { header: "totalGiven", value: (d) => minorUnitsToDecimal(d.totalGivenCents, currency) },
    { header: "totalGivenCents", value: (d) => d.totalGivenCents },
    { header: "currency", value: () => currency },
    { header: "donationCount", value: (d) => d.donationCount },
    { header: "firstDonationAt", value: (d) => iso(d.firstDonationAt) },
    { header: "lastDonationAt", value: (d) => iso(d.lastDonationAt) },
    { header: "phone", value: (d) => d.phone },
    { header: "addressLine1", value: (d) => d.address?.line1 ?? null },
    { header: "addressLine2", value: (d) => d.address?.line2 ?? null },
    { header: "city", value: (d) => d.address?.city ?? null },
    { header: "region", value: (d) => d.address?.region ?? null },
    { header: "postalCode", value: (d) => d.address?.postalCode ?? null },
    { header: "country", value: (d) => d.address?.country ?? null },
    { header: "tags", value: (d) => d.tags.join("; ") },
    { header: "emailOptIn", value: (d) => d.emailOptIn },
    { header: "source", value: (d) => d.source },
    { header: "createdAt", value: (d) => iso(d.createdAt) },
  ];
}

/**
 * The organization's donors matching `q`, in the list's order (`sort`, `order`), as a CSV
 * stream read in keyset batches, like the donations export.
 */
export async function exportDonorsCsv(db: Db, org: Organization, by: DonorOrder, batchSize = EXPORT_BATCH_SIZE) {
  const fetch = (cursor: DonorCursor | null) => listDonorsAfter(db, org.id, by, { limit: batchSize, cursor });
  return csvStream(donorCsvColumns(org.currency), await fetch(null), fetch, "donors");
}
