import { and, count, eq, type SQL } from "drizzle-orm";
import type { PgColumn, PgSelect, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "@/db";

/** The first row of `table` that matches `where`, or undefined. */
export async function firstRow<T extends PgTable>(db: DbOrTx, table: T, where: SQL | undefined): Promise<T["$inferSelect"] | undefined> {
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(where)
    .limit(1);
  return row as T["$inferSelect"] | undefined;
}

/** A table whose rows each belong to one organization. */
type OrgTable = PgTable & { id: PgColumn; orgId: PgColumn };

/** An organization's row by ID, or undefined (also when the row belongs to another organization). */
export function findOrgRow<T extends OrgTable>(db: DbOrTx, table: T, orgId: string, id: string): Promise<T["$inferSelect"] | undefined> {
  return firstRow(db, table, and(eq(table.id, id), eq(table.orgId, orgId)));
}

/** A page of a list numbered from 1. */
export type OffsetPage = { page: number; limit: number };

/**
 * One page of `query` and how many rows of `table` match `where` in all, read at once. `query`
 * selects from `table` under the same `where`, in a total order (so pages never overlap); pass it
 * with `.$dynamic()`.
 */
export async function offsetPage<Q extends PgSelect>(
  db: DbOrTx,
  query: Q,
  of: { table: PgTable; where: SQL | undefined },
  page: OffsetPage,
): Promise<{ rows: Awaited<Q>; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    query.limit(page.limit).offset((page.page - 1) * page.limit),
    db.select({ total: count() }).from(of.table).where(of.where),
  ]);
  return { rows: rows as Awaited<Q>, total };
}

/** A keyset page request: at most `limit` rows after `cursor` (from the start when there is none). */
export type KeysetPage<C> = { limit: number; cursor?: C | null };

/** Rows of a keyset page, and the cursor after the last one (null when nothing follows). */
export type Keyset<R, C> = { rows: R[]; nextCursor: C | null };

/**
 * The page out of `found`, which was read with a limit one past `limit`: that extra row only
 * tells whether anything follows, and then the cursor is taken from the page's last row.
 */
export function keysetPage<R, C>(found: R[], limit: number, cursorOf: (last: R) => C): Keyset<R, C> {
  const rows = found.slice(0, limit);
  const last = rows.at(-1);
  return { rows, nextCursor: found.length > limit && last ? cursorOf(last) : null };
}
