import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donors, type Donor } from "@/db/schema";
import { newId } from "@/lib/ids";

/**
 * The organization's donor for an email (case-insensitive), created with the given name on the
 * first gift. An existing donor is never changed here: anyone can start a donation with any
 * email, so only a succeeded payment may update a donor's name (see moveDonation).
 */
export async function findOrCreateDonor(
  db: DbOrTx,
  orgId: string,
  email: string,
  firstName: string | null,
  lastName: string | null,
): Promise<Pick<Donor, "id">> {
  // DO NOTHING waits for a concurrent insert of the same email to commit; the SELECT then sees it.
  const [created] = await db
    .insert(donors)
    .values({ id: newId("dnr"), orgId, email, firstName, lastName })
    .onConflictDoNothing()
    .returning({ id: donors.id });
  if (created) return created;
  const [existing] = await db
    .select({ id: donors.id })
    .from(donors)
    .where(and(eq(donors.orgId, orgId), sql`lower(${donors.email}) = lower(${email})`))
    .limit(1);
  return existing;
}
