import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { organizations, type Campaign } from "@/db/schema";
import { CSV_BOM, csvLine } from "@/lib/services/exports/csv";
import { listTickets } from "./tickets";

export const ATTENDEE_CSV_COLUMNS = [
  "attendee_name",
  "attendee_email",
  "tier",
  "ticket_code",
  "status",
  "void_reason",
  "checked_in_at",
  "buyer_name",
  "buyer_email",
  "donation_id",
] as const;

/** The event's tickets as a spreadsheet-friendly CSV (BOM, CRLF, quoted, formulas neutralized: see exports/csv.ts). */
export async function exportAttendeesCsv(db: DbOrTx, campaign: Campaign): Promise<{ csv: string; orgSlug: string }> {
  const [[org], rows] = await Promise.all([
    db.select({ slug: organizations.slug }).from(organizations).where(eq(organizations.id, campaign.orgId)),
    listTickets(db, campaign.id),
  ]);
  const lines = rows.map((t) =>
    csvLine([
      t.attendeeName,
      t.attendeeEmail,
      t.tierName,
      t.code,
      t.status,
      t.voidReason,
      t.checkedInAt?.toISOString(),
      t.buyerName,
      t.buyerEmail,
      t.donationId,
    ]),
  );
  return { csv: CSV_BOM + csvLine([...ATTENDEE_CSV_COLUMNS]) + lines.join(""), orgSlug: org.slug };
}
