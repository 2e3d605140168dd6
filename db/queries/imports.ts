import { and, count, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, donations, importRows, imports, type Import, type ImportRowData } from "@/db/schema";
import type { OffsetPage as Page } from "./rows";

export async function findImport(db: DbOrTx, id: string): Promise<Import | undefined> {
  const [row] = await db.select().from(imports).where(eq(imports.id, id)).limit(1);
  return row;
}

/** The organization's imports, newest first, and how many there are. */
export async function listImports(db: DbOrTx, orgId: string, page: Page): Promise<{ rows: Import[]; total: number }> {
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(imports)
      .where(eq(imports.orgId, orgId))
      .orderBy(desc(imports.createdAt), desc(imports.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ total: count() }).from(imports).where(eq(imports.orgId, orgId)),
  ]);
  return { rows, total };
}

/** The organization's campaigns as an import names them: by slug or by title. */
export function campaignNames(db: DbOrTx, orgId: string) {
  return db.select({ id: campaigns.id, slug: campaigns.slug, title: campaigns.title }).from(campaigns).where(eq(campaigns.orgId, orgId));
}

/** Which of these external IDs the organization's gifts already carry. */
export async function knownExternalIds(db: DbOrTx, orgId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  // One JSON parameter for the list, however long (not one parameter per ID).
  const rows = await db
    .select({ id: donations.externalId })
    .from(donations)
    .where(
      and(eq(donations.orgId, orgId), sql`${donations.externalId} in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`),
    );
  return new Set(rows.map((r) => r.id!));
}

/**
 * Stores checked rows, as one JSON parameter (drizzle's builder, rendering each row's columns,
 * cost more CPU than Postgres spent storing them).
 */
export async function insertImportRows(db: DbOrTx, importId: string, rows: { row: number; data: ImportRowData; duplicate: boolean }[]) {
  if (rows.length === 0) return;
  await db.execute(sql`
    insert into ${importRows} (import_id, row, data, duplicate)
    select ${importId}, v.row, v.data, v.duplicate
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(row integer, data jsonb, duplicate boolean)`);
}

/** The gifts an import created, for its undo. */
export function importedDonations(db: DbOrTx, importId: string) {
  return db
    .select()
    .from(donations)
    .where(and(eq(donations.importId, importId), isNotNull(donations.importId)))
    .orderBy(donations.id)
    .for("update");
}
