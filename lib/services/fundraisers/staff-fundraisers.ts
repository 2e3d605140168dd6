import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { listParentFundraisers } from "@/db/queries/fundraisers";
import { organizations, type Campaign, type Organization } from "@/db/schema";
import { notFound } from "@/lib/errors";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { CSV_BOM, csvLine, minorUnitsToDecimal } from "@/lib/services/exports/csv";

/** The organization a campaign in scope belongs to (it exists: the campaign's foreign key says so). */
export async function findOrganizationById(db: DbOrTx, id: string): Promise<Organization> {
  const [org] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  if (!org) throw notFound("organization_not_found", "Organization not found");
  return org;
}

export const FUNDRAISER_CSV_COLUMNS = [
  "id",
  "kind",
  "title",
  "firstName",
  "lastName",
  "teamId",
  "status",
  "moderation",
  "goal",
  "goalCents",
  "raised",
  "raisedCents",
  "donationCount",
  "pageUrl",
  "createdAt",
] as const;

/** A peer-to-peer campaign's pages and teams as CSV (a few thousand rows at most: built at once). */
export async function exportFundraisersCsv(db: DbOrTx, org: Organization, parent: Campaign): Promise<string> {
  const rows = await listParentFundraisers(db, parent.id);
  const base = donateBaseUrl(org);
  const lines = rows.map((c) =>
    csvLine([
      c.id,
      c.isTeam ? "team" : "page",
      c.title,
      c.fundraiserFirstName,
      c.fundraiserLastName,
      c.teamId,
      c.status,
      c.moderation,
      c.goalAmountCents === null ? null : minorUnitsToDecimal(c.goalAmountCents, org.currency),
      c.goalAmountCents,
      minorUnitsToDecimal(c.raisedAmountCents, org.currency),
      c.raisedAmountCents,
      c.donationCount,
      `${base}/donate/${c.slug}`,
      c.createdAt.toISOString(),
    ]),
  );
  return CSV_BOM + csvLine([...FUNDRAISER_CSV_COLUMNS]) + lines.join("");
}
