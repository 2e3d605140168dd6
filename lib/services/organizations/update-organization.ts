import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { DbOrTx } from "@/db";
import { isUniqueViolation } from "@/db/errors";
import { organizations, type Organization } from "@/db/schema";
import { conflict } from "@/lib/errors";
import type { updateOrganizationBody } from "@/lib/schemas/organizations";

/** Updates the editable fields; status and payout fields change only through processor events. */
export async function updateOrganization(
  db: DbOrTx,
  org: Organization,
  patch: z.output<typeof updateOrganizationBody>,
): Promise<Organization> {
  if (Object.keys(patch).length === 0) return org;
  try {
    const [updated] = await db
      .update(organizations)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(eq(organizations.id, org.id))
      .returning();
    return updated;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("organization_slug_taken", "Organization slug is already taken");
    throw err;
  }
}
