import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { statement } from "@/db/statements";
import { donors, type Donor, type DonorSource } from "@/db/schema";
import { newId } from "@/lib/ids";

const ph = sql.placeholder;

// DO NOTHING waits for a concurrent insert of the same email to commit; the SELECT then sees it.
const insertDonor = statement(donors, (db) =>
  db
    .insert(donors)
    .values({
      id: ph("id"),
      orgId: ph("orgId"),
      email: ph("email"),
      firstName: ph("firstName"),
      lastName: ph("lastName"),
      source: ph("source"),
    })
    .onConflictDoNothing()
    .returning({ id: donors.id }),
);

const donorByEmail = statement(donors, (db) =>
  db
    .select({ id: donors.id })
    .from(donors)
    .where(and(eq(donors.orgId, ph("orgId")), sql`lower(${donors.email}) = lower(${ph("email")})`))
    .limit(1),
);

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
  source: DonorSource = "ONLINE",
): Promise<Pick<Donor, "id"> & { created?: true }> {
  const [created] = await insertDonor(db, { id: newId("dnr"), orgId, email, firstName, lastName, source });
  if (created) return { id: created.id, created: true };
  const [existing] = await donorByEmail(db, { orgId, email });
  return existing;
}
