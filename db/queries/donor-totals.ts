import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donations, donors, type Donor } from "@/db/schema";

/**
 * Sets a donor's totals to what their donations say: the sum and count of their SUCCEEDED
 * donations and the first and last of those gifts' times. The caller holds the donor's row lock
 * (FOR UPDATE), so a concurrent event's delta on the donor waits and lands on top of this.
 */
export async function recomputeDonorTotals(db: DbOrTx, donorId: string): Promise<Donor> {
  const counted = and(eq(donations.donorId, donorId), eq(donations.status, "SUCCEEDED"));
  const of = (expr: ReturnType<typeof sql>) => sql`(select ${expr} from ${donations} where ${counted})`;
  const [row] = await db
    .update(donors)
    .set({
      totalGivenCents: of(sql`coalesce(sum(${donations.amount}), 0)`),
      donationCount: of(sql`count(*)`),
      firstDonationAt: of(sql`min(${donations.succeededAt})`),
      lastDonationAt: of(sql`max(${donations.succeededAt})`),
      updatedAt: sql`now()`,
    })
    .where(eq(donors.id, donorId))
    .returning();
  return row;
}
