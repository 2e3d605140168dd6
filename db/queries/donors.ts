import { and, arrayContains, asc, desc, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donors, type Donor } from "@/db/schema";
import { keysetPage, offsetPage, type Keyset, type OffsetPage } from "./rows";
import { containsAny } from "./search";

/** The orders the donors list and its export know (see sortKeys). */
export const DONOR_SORTS = ["total", "lastGift", "name", "createdAt"] as const;
export type DonorSort = (typeof DONOR_SORTS)[number];
export type SortOrder = "asc" | "desc";
/** The search, tag filter and order shared by the donors list and its CSV export. */
export type DonorOrder = { q?: string; tag?: string; sort: DonorSort; order: SortOrder };

/** One column of a donor ordering: the SQL expression and its type, to compare a cursor value with. */
type SortKey = { expr: SQL; type: "bigint" | "timestamptz" | "text" | "boolean" };

const nameKey = sql`lower(concat_ws(' ', ${donors.lastName}, ${donors.firstName}))`;

/**
 * The columns a donor ordering sorts by, all in the one direction `order`, ending with the ID so
 * the order is total. Nullable sort values are folded into non-null keys so that donors without a
 * gift (lastGift) or a name (name) come last in both directions, and so that a keyset cursor is a
 * plain row comparison.
 */
function sortKeys(sort: DonorSort, order: SortOrder): SortKey[] {
  const id: SortKey = { expr: sql`${donors.id}`, type: "text" };
  switch (sort) {
    case "total":
      return [{ expr: sql`${donors.totalGivenCents}`, type: "bigint" }, id];
    case "createdAt":
      return [{ expr: sql`${donors.createdAt}`, type: "timestamptz" }, id];
    case "lastGift":
      // No gift yet sorts past every real time in the direction of travel.
      return [
        { expr: sql`coalesce(${donors.lastDonationAt}, ${order === "desc" ? "-infinity" : "infinity"}::timestamptz)`, type: "timestamptz" },
        id,
      ];
    case "name":
      return [
        // asc: named donors (false) before unnamed (true); desc: named (true) before unnamed (false).
        { expr: order === "asc" ? sql`(${nameKey} = '')` : sql`(${nameKey} <> '')`, type: "boolean" },
        { expr: nameKey, type: "text" },
        { expr: sql`coalesce(lower(${donors.email}), '')`, type: "text" },
        id,
      ];
  }
}

function donorConditions(orgId: string, { q, tag }: Pick<DonorOrder, "q" | "tag">): SQL[] {
  const conditions: SQL[] = [eq(donors.orgId, orgId)];
  if (tag) conditions.push(arrayContains(donors.tags, [tag]));
  if (q) {
    conditions.push(
      containsAny(q, [donors.email, donors.firstName, donors.lastName, sql`concat_ws(' ', ${donors.firstName}, ${donors.lastName})`]),
    );
  }
  return conditions;
}

const orderBy = (keys: SortKey[], order: SortOrder) => keys.map((k) => (order === "asc" ? asc(k.expr) : desc(k.expr)));

/** A page of an organization's donors in the requested order, with the total that match `q`. */
export async function listDonors(db: DbOrTx, orgId: string, by: DonorOrder, page: OffsetPage): Promise<{ rows: Donor[]; total: number }> {
  const where = and(...donorConditions(orgId, by));
  const query = db
    .select()
    .from(donors)
    .where(where)
    .orderBy(...orderBy(sortKeys(by.sort, by.order), by.order));
  return offsetPage(db, query.$dynamic(), { table: donors, where }, page);
}

/** Where a keyset batch of donors ended: the sort keys of its last row, as Postgres prints them. */
export type DonorCursor = string[];

/**
 * The donors after `cursor` in the same order as `listDonors` (keyset paging, for exports that
 * walk every donor in constant memory). Answers the rows and the cursor after the last one, null
 * when nothing follows.
 */
export async function listDonorsAfter(
  db: DbOrTx,
  orgId: string,
  by: DonorOrder,
  batch: { limit: number; cursor: DonorCursor | null },
): Promise<Keyset<Donor, DonorCursor>> {
  const keys = sortKeys(by.sort, by.order);
  const conditions = donorConditions(orgId, by);
  if (batch.cursor) {
    // Bound as text, then cast in SQL: the postgres driver would serialize a string bound as a
    // boolean parameter as false, and a JS Date would drop a timestamp's microseconds.
    const values = batch.cursor.map((v, i) => sql`(${v}::text)::${sql.raw(keys[i].type)}`);
    const op = by.order === "asc" ? sql`>` : sql`<`;
    conditions.push(
      sql`(${sql.join(
        keys.map((k) => k.expr),
        sql`, `,
      )}) ${op} (${sql.join(values, sql`, `)})`,
    );
  }
  const found = await db
    .select({
      donor: donors,
      key: sql<string>`json_build_array(${sql.join(
        keys.map((k) => sql`(${k.expr})::text`),
        sql`, `,
      )})::text`,
    })
    .from(donors)
    .where(and(...conditions))
    .orderBy(...orderBy(keys, by.order))
    .limit(batch.limit + 1);
  const { rows, nextCursor } = keysetPage(found, batch.limit, (last) => JSON.parse(last.key) as DonorCursor);
  return { rows: rows.map((r) => r.donor), nextCursor };
}

export async function findDonor(db: DbOrTx, id: string): Promise<Donor | undefined> {
  const [d] = await db.select().from(donors).where(eq(donors.id, id)).limit(1);
  return d;
}

/** The organization's donor with this email (case-insensitive), other than `exceptId`. */
export async function findDonorByEmail(db: DbOrTx, orgId: string, email: string, exceptId?: string): Promise<Donor | undefined> {
  const [d] = await db
    .select()
    .from(donors)
    .where(
      and(eq(donors.orgId, orgId), sql`lower(${donors.email}) = lower(${email})`, exceptId ? sql`${donors.id} <> ${exceptId}` : undefined),
    )
    .limit(1);
  return d;
}

/** Every tag the organization's donors carry, with how many carry it, most used first. */
export async function listDonorTags(db: DbOrTx, orgId: string): Promise<{ tag: string; donors: number }[]> {
  const tag = sql<string>`t.tag`;
  const rows = await db
    .select({ tag, donors: sql<number>`count(*)::int` })
    .from(sql`${donors}, unnest(${donors.tags}) as t(tag)`)
    .where(eq(donors.orgId, orgId))
    .groupBy(tag)
    .orderBy(sql`count(*) desc`, tag);
  return rows;
}

/**
 * Other donors of the organization with the same first and last name (case-insensitive) as
 * `donor`: likely the same person under another email, offered for a merge. Nameless and erased
 * donors have none.
 */
export async function listPossibleDuplicates(db: DbOrTx, donor: Donor, limit = 10): Promise<Donor[]> {
  if (!donor.firstName || !donor.lastName || donor.erasedAt) return [];
  return db
    .select()
    .from(donors)
    .where(
      and(
        eq(donors.orgId, donor.orgId),
        sql`${donors.id} <> ${donor.id}`,
        sql`lower(${donors.firstName}) = lower(${donor.firstName})`,
        sql`lower(${donors.lastName}) = lower(${donor.lastName})`,
        sql`${donors.erasedAt} is null`,
      ),
    )
    .orderBy(desc(donors.totalGivenCents), donors.id)
    .limit(limit);
}
