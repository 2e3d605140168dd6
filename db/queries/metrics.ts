import { count, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donations } from "@/db/schema";

/** How many donations are in each status, every organization together. */
export async function countDonationsByStatus(db: DbOrTx): Promise<{ status: string; count: number }[]> {
  const rows = await db.select({ status: donations.status, count: count() }).from(donations).groupBy(donations.status);
  return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
}

/**
 * The app's connections to the database as the server sees them (`pg_stat_activity`, by the
 * `application_name` the app connects with), by state: every instance's pools together.
 */
export async function countDatabaseConnections(db: DbOrTx, applicationName: string): Promise<{ state: string; count: number }[]> {
  const result = await db.execute(
    sql`select coalesce(state, 'unknown') as state, count(*)::int as count from pg_stat_activity
        where application_name = ${applicationName} and datname = current_database() group by 1`,
  );
  // postgres-js answers an array of rows, PGlite `{ rows }`.
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as { state: unknown; count: unknown }[];
  return rows.map((r) => ({ state: String(r.state), count: Number(r.count) }));
}
