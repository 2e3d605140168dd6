import { and, eq, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donations, donors } from "@/db/schema";

/**
 * Per UTC year, how many donors (not erased) have at least one counted gift: who a run of that
 * year would email. Newest year first.
 */
export async function listStatementYears(db: DbOrTx, orgId: string): Promise<{ year: number; donors: number }[]> {
  const year = sql<number>`extract(year from ${donations.succeededAt} at time zone 'UTC')::int`;
  const rows = await db
    .select({ year, donors: sql<number>`count(distinct ${donations.donorId})`.mapWith(Number) })
    .from(donations)
    .innerJoin(donors, eq(donors.id, donations.donorId))
    .where(and(eq(donations.orgId, orgId), eq(donations.status, "SUCCEEDED"), isNull(donors.erasedAt)))
    .groupBy(year)
    .orderBy(sql`1 desc`);
  return rows.map((r) => ({ year: Number(r.year), donors: r.donors }));
}
