import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { importedDonations } from "@/db/queries/imports";
import { donationEvents, donations, donors, imports, recurringPlans, type Import } from "@/db/schema";
import { conflict } from "@/lib/errors";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { campaignDeltas, lockCampaigns, lockDonors, moveCampaigns, removeDailyTotals, removeDonorGifts } from "./import-aggregates";

/**
 * Undoes a DONE import in one transaction: the gifts it created leave every aggregate (as a void
 * moves each through moveDonation, quietly; here grouped, for the whole import at once) and are
 * deleted with their timelines; then the donors the
 * import created (`source: IMPORT`) that have no gift left are deleted. Every total returns to
 * what it was before the import. UNDONE is final. The audit entry `import.undone` commits with it.
 */
export async function undoImport(db: Db, imp: Import, audit: AuditContext): Promise<Import> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(imports).where(eq(imports.id, imp.id)).for("update");
    if (current.status !== "DONE") throw conflict("conflict", `Only a finished import can be undone (this one is ${current.status})`);
    const gifts = await importedDonations(tx, imp.id);
    const donorIds = new Set(gifts.map((g) => g.donorId));
    // The gifts that still count leave every aggregate, grouped, as moveDonation moves a gift
    // that stops counting: campaigns (with team pages and parents) locked first, in one order,
    // then the per-day totals, then the donors.
    const counted = gifts.filter((g) => g.status === "SUCCEEDED");
    const locked = await lockCampaigns(
      tx,
      counted.map((g) => g.campaignId),
    );
    await moveCampaigns(
      tx,
      campaignDeltas(
        locked,
        counted.map((g) => ({ campaignId: g.campaignId, amount: g.amount, matched: g.matchedAmountCents })),
        -1,
      ),
    );
    const ids = gifts.map((g) => g.id);
    const countedIds = counted.map((g) => g.id);
    for (let i = 0; i < countedIds.length; i += 5000) await removeDailyTotals(tx, countedIds.slice(i, i + 5000));
    for (let i = 0; i < ids.length; i += 5000) {
      const chunk = ids.slice(i, i + 5000);
      await tx.delete(donationEvents).where(inArray(donationEvents.donationId, chunk));
      await tx.delete(donations).where(inArray(donations.id, chunk));
    }
    // Their donors' totals by delta, first/last gift times recomputed from what still counts.
    const removed = new Map<string, { total: number; count: number }>();
    for (const g of counted) {
      const r = removed.get(g.donorId) ?? { total: 0, count: 0 };
      r.total += g.amount;
      r.count++;
      removed.set(g.donorId, r);
    }
    await lockDonors(tx, removed.keys());
    await removeDonorGifts(tx, removed);
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
