import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { importedDonations } from "@/db/queries/imports";
import { donationEvents, donations, donors, imports, recurringPlans, type Import } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { moveDonation } from "@/lib/services/donations/move-donation";

/**
 * Undoes a DONE import in one transaction: each gift it created leaves every aggregate through
 * moveDonation (as a void does, quietly) and is deleted with its timeline; then the donors the
 * import created (`source: IMPORT`) that have no gift left are deleted. Every total returns to
 * what it was before the import. UNDONE is final. The audit entry `import.undone` commits with it.
 */
export async function undoImport(db: Db, imp: Import, audit: AuditContext): Promise<Import> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(imports).where(eq(imports.id, imp.id)).for("update");
    if (current.status !== "DONE") throw conflict("conflict", `Only a finished import can be undone (this one is ${current.status})`);
    const gifts = await importedDonations(tx, imp.id);
    const donorIds = new Set<string>();
    for (const gift of gifts) {
      donorIds.add(gift.donorId);
      if (gift.status === "SUCCEEDED")
        await moveDonation(tx, gift, "VOIDED", { timelineType: "import.undone", data: { importId: imp.id }, quiet: true });
    }
    const ids = gifts.map((g) => g.id);
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      await tx.delete(donationEvents).where(inArray(donationEvents.donationId, chunk));
      await tx.delete(donations).where(inArray(donations.id, chunk));
    }
    const candidates = [...donorIds];
    for (let i = 0; i < candidates.length; i += 1000) {
      const chunk = candidates.slice(i, i + 1000);
      await tx
        .delete(donors)
        .where(
          and(
            inArray(donors.id, chunk),
            eq(donors.source, "IMPORT"),
            sql`not exists (select 1 from ${donations} where ${donations.donorId} = ${donors.id})`,
            sql`not exists (select 1 from ${recurringPlans} where ${recurringPlans.donorId} = ${donors.id})`,
          ),
        );
    }
    const [undone] = await tx
      .update(imports)
      .set({ status: "UNDONE", undoneAt: new Date(), updatedAt: new Date() })
      .where(eq(imports.id, imp.id))
      .returning();
    await recordAudit(tx, audit, {
      orgId: undone.orgId,
      action: "import.undone",
      target: { type: "import", id: undone.id },
      data: { preset: undone.preset, gifts: gifts.length },
    });
    return undone;
  });
}
