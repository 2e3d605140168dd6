import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { imports, type Import } from "@/db/schema";
import { conflict } from "@/lib/errors";

/**
 * Commits a READY import: IMPORTING, its valid rows left for the background apply
 * (applyImportBatch). Only a READY import can be committed (409 otherwise, also when two
 * commits race: the status update decides).
 */
export async function commitImport(db: Db, imp: Import): Promise<Import> {
  const [committed] = await db
    .update(imports)
    .set({ status: "IMPORTING", committedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(imports.id, imp.id), eq(imports.status, "READY")))
    .returning();
  if (!committed) throw conflict("conflict", `Only a READY import can be committed (this one is ${imp.status})`);
  return committed;
}
