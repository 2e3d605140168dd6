import { and, eq } from "drizzle-orm";
import type { Db } from "@/db";
import { imports, type Import } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/**
 * Commits a READY import: IMPORTING, its valid rows left for the background apply
 * (applyImportBatch). Only a READY import can be committed (409 otherwise, also when two
 * commits race: the status update decides). The audit entry `import.committed` commits with it.
 */
export async function commitImport(db: Db, imp: Import, audit: AuditContext): Promise<Import> {
  return db.transaction(async (tx) => {
    const [committed] = await tx
      .update(imports)
      .set({ status: "IMPORTING", committedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(imports.id, imp.id), eq(imports.status, "READY")))
      .returning();
    if (!committed) throw conflict("conflict", `Only a READY import can be committed (this one is ${imp.status})`);
    await recordAudit(tx, audit, {
      orgId: committed.orgId,
      action: "import.committed",
      target: { type: "import", id: committed.id },
      data: { preset: committed.preset, rows: committed.rows, valid: committed.valid, invalid: committed.invalid },
    });
    return committed;
  });
}
