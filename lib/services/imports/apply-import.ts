import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { donations, donors, importRows, imports, organizations, type Import, type ImportRow, type Organization } from "@/db/schema";
import { newId } from "@/lib/ids";
import { moveDonation } from "@/lib/services/donations/move-donation";
import { emitEvent } from "@/lib/webhooks-out/emit";
import { serializeImport } from "@/lib/schemas/imports";

/** Rows applied per transaction: progress moves every batch, and a restart redoes at most one uncommitted batch. */
export const APPLY_BATCH = 250;

/**
 * Applies a batch of imported rows in the caller's transaction. Their donors are found by email
 * or created (`source: IMPORT`) in two statements for the batch, their gifts inserted PENDING in
 * one (a row whose external ID the organization already has inserts nothing: the unique index
 * decides, also against a concurrent import), and each gift is then moved to SUCCEEDED by
 * moveDonation, so every aggregate (campaign, parent, donor, per-day totals) moves exactly as
 * for any gift, quietly: no email, no per-gift webhook, no receipt number. Answers how many
 * were applied and how many were skipped as duplicates.
 */
async function applyRows(tx: Tx, org: Pick<Organization, "id" | "currency">, importId: string, rows: ImportRow[]) {
  const todo = rows.filter((r) => !r.duplicate);
  if (todo.length === 0) return { applied: 0, skipped: 0 };
  const firstByEmail = new Map<string, ImportRow["data"]>();
  for (const r of todo) if (!firstByEmail.has(r.data.email.toLowerCase())) firstByEmail.set(r.data.email.toLowerCase(), r.data);
  await tx
    .insert(donors)
    .values(
      [...firstByEmail.values()].map((d) => ({
        id: newId("dnr"),
        orgId: org.id,
        email: d.email,
        firstName: d.firstName,
        lastName: d.lastName,
        source: "IMPORT" as const,
      })),
    )
    .onConflictDoNothing();
  const found = await tx
    .select({ id: donors.id, email: sql<string>`lower(${donors.email})` })
    .from(donors)
    .where(and(eq(donors.orgId, org.id), inArray(sql`lower(${donors.email})`, [...firstByEmail.keys()])));
  const donorOf = new Map(found.map((d) => [d.email, d.id]));
  const values = todo.map((r) => ({
    id: newId("don"),
    orgId: org.id,
    campaignId: r.data.campaignId,
    donorId: donorOf.get(r.data.email.toLowerCase())!,
    amount: r.data.amountCents,
    currency: org.currency,
    email: r.data.email,
    firstName: r.data.firstName,
    lastName: r.data.lastName,
    source: "IMPORT" as const,
    method: r.data.method,
    reference: r.data.reference,
    externalId: r.data.externalId,
    importId,
    succeededAt: new Date(r.data.receivedAt),
  }));
  const inserted = new Map((await tx.insert(donations).values(values).onConflictDoNothing().returning()).map((d) => [d.id, d]));
  let applied = 0;
  for (const [i, v] of values.entries()) {
    const pending = inserted.get(v.id);
    if (!pending) continue;
    await moveDonation(tx, pending, "SUCCEEDED", { timelineType: "import.applied", data: { importId, row: todo[i].row }, quiet: true });
    applied++;
  }
  return { applied, skipped: todo.length - applied };
}

export type AppliedBatch = { importId: string; applied: number; skipped: number; done: boolean };

/**
 * One batch of one committed import, in one transaction: the import is claimed with `FOR UPDATE
 * SKIP LOCKED` (another worker, on any instance, takes another import or waits for the next
 * run), the rows after its `cursor` are applied, and the cursor, `processed` and `duplicates`
 * move in the same transaction. A worker killed mid-batch rolls the whole batch back; the next
 * run starts again after the last committed row, so no row is ever applied twice. The last
 * batch marks it DONE and emits one `import.completed`. Answers null when no import is waiting.
 */
export async function applyImportBatch(db: Db, options: { importId?: string; batchSize?: number } = {}): Promise<AppliedBatch | null> {
  const size = options.batchSize ?? APPLY_BATCH;
  return db.transaction(async (tx) => {
    const [imp] = await tx
      .select()
      .from(imports)
      .where(and(eq(imports.status, "IMPORTING"), options.importId ? eq(imports.id, options.importId) : undefined))
      .orderBy(asc(imports.committedAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!imp) return null;
    const [org] = await tx
      .select({ id: organizations.id, currency: organizations.currency })
      .from(organizations)
      .where(eq(organizations.id, imp.orgId));
    const rows = await tx
      .select()
      .from(importRows)
      .where(and(eq(importRows.importId, imp.id), gt(importRows.row, imp.cursor)))
      .orderBy(asc(importRows.row))
      .limit(size);
    const { applied, skipped } = await applyRows(tx, org, imp.id, rows);
    const done = rows.length < size;
    const [after] = await tx
      .update(imports)
      .set({
        cursor: rows.length > 0 ? rows[rows.length - 1].row : imp.cursor,
        processed: sql`${imports.processed} + ${rows.length}`,
        duplicates: sql`${imports.duplicates} + ${skipped}`,
        ...(done ? { status: "DONE" as const, completedAt: new Date() } : {}),
        updatedAt: new Date(),
      })
      .where(eq(imports.id, imp.id))
      .returning();
    if (done) await emitEvent(tx, imp.orgId, "import.completed", serializeImport(after));
    return { importId: imp.id, applied, skipped, done };
  });
}

let draining: Promise<void> | undefined;

/**
 * Applies committed imports batch after batch until none is left (or `maxMs` has passed), in
 * this process. Several processes may drain at once: each batch claims its import with SKIP
 * LOCKED. Started after a commit and from every worker run (which resumes imports a restart
 * interrupted).
 */
export async function drainImports(db: Db, options: { maxMs?: number; batchSize?: number } = {}): Promise<number> {
  const until = Date.now() + (options.maxMs ?? Number.POSITIVE_INFINITY);
  let batches = 0;
  while (Date.now() < until) {
    const batch = await applyImportBatch(db, { batchSize: options.batchSize });
    if (!batch) break;
    batches++;
  }
  return batches;
}

/** Starts draining in the background unless this process already is; errors are left for the worker's next run. */
export function drainImportsInBackground(db: Db, onError: (err: unknown) => void): void {
  if (draining) return;
  draining = drainImports(db)
    .then(() => undefined, onError)
    .finally(() => {
      draining = undefined;
    });
}

export type { Import };
