import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { isUniqueViolation, pgConstraint } from "@/db/errors";
import { donors, type Donor, type PostalAddress } from "@/db/schema";
import { conflict, notFound } from "@/lib/errors";
import type { UpdateDonorInput } from "@/lib/schemas/donors";
import { changedFields, recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

const inInputOrder = (a: PostalAddress): PostalAddress => ({
  line1: a.line1,
  line2: a.line2,
  city: a.city,
  region: a.region,
  postalCode: a.postalCode,
  country: a.country,
});

const emailTaken = () => conflict("donor_email_taken", "Another donor of this organization has this email");

/**
 * Staff edit a donor's contact details, tags and email consent. The row is locked while the
 * change is made; an email another donor of the organization has (case-insensitive) is refused
 * (the unique index decides under concurrency). An erased donor stays erased: 409 `donor_erased`.
 * Totals are never edited here (they are the donations' sums). Audited as `donor.updated` with
 * the fields that changed; a patch that changes nothing records nothing.
 */
export async function updateDonor(db: Db, donorId: string, patch: UpdateDonorInput, audit: AuditContext): Promise<Donor> {
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx.select().from(donors).where(eq(donors.id, donorId)).for("update");
      if (!current) throw notFound("donor_not_found", "Donor not found");
      if (current.erasedAt) throw conflict("donor_erased", "An erased donor cannot be edited");
      // jsonb keeps its own key order; compare addresses in the input's.
      const changes = changedFields({ ...current, address: current.address && inInputOrder(current.address) }, patch);
      if (Object.keys(changes).length === 0) return current;
      const [row] = await tx
        .update(donors)
        .set({ ...changes, updatedAt: sql`now()` })
        .where(eq(donors.id, donorId))
        .returning();
      await recordAudit(tx, audit, {
        orgId: current.orgId,
        action: "donor.updated",
        target: { type: "donor", id: donorId },
        data: { changes },
      });
      return row;
    });
  } catch (err) {
    if (isUniqueViolation(err) && pgConstraint(err) === "donors_org_email_key") throw emailTaken();
    throw err;
  }
}
