import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import {
  donationEvents,
  donations,
  donors,
  importRows,
  imports,
  organizations,
  type Import,
  type ImportRow,
  type Organization,
} from "@/db/schema";
import { rowsOf } from "@/db/statements";
import { newId } from "@/lib/ids";
import { matchFor } from "@/lib/money";
import { emitEvent } from "@/lib/webhooks-out/emit";
import { serializeImport } from "@/lib/schemas/imports";
import { addDonorGifts, campaignDeltas, lockCampaigns, lockDonors, moveCampaigns, addDailyTotals } from "./import-aggregates";

/**
 * Rows applied per transaction: progress moves every batch, and a restart redoes at most one
 * uncommitted batch. The batch's campaign rows stay locked until it commits (a concurrent gift to
 * one of them waits that long), so a batch stays well under a second.
 */
export const APPLY_BATCH = 1000;

/**
 * Applies a batch of imported rows in the caller's transaction. Their donors are found by email
 * or created (`source: IMPORT`) in two statements for the batch, their gifts inserted SUCCEEDED in
 * one (a row whose external ID the organization already has inserts nothing: the unique index
 * decides, also against a concurrent import), and every aggregate then moves for the batch in a
 * few grouped statements, exactly as moveDonation moves it for each gift that starts counting:
 * the campaigns' raised amount, count and match (and their team pages' and parents'), the per-day
 * totals, the donors' totals, first/last gift times and names, and one `import.applied` timeline
 * entry per gift. Quietly: no email, no per-gift webhook, no receipt number. Locks are taken as
 * moveDonation takes them, campaigns (page → team → parent) before donors, each level in ID
 * order. Answers how many were applied and how many were skipped as duplicates.
 */
async function applyRows(tx: Tx, org: Pick<Organization, "id" | "currency">, importId: string, rows: ImportRow[]) {
  const todo = rows.filter((r) => !r.duplicate);
  if (todo.length === 0) return { applied: 0, skipped: 0 };
  const firstByEmail = new Map<string, ImportRow["data"]>();
  for (const r of todo) if (!firstByEmail.has(r.data.email.toLowerCase())) firstByEmail.set(r.data.email.toLowerCase(), r.data);
  const donorOf = new Map<string, string>();
  const find = async (emails: string[]) => {
    const found = await tx
      .select({ id: donors.id, email: sql<string>`lower(${donors.email})` })
      .from(donors)
      .where(and(eq(donors.orgId, org.id), inArray(sql`lower(${donors.email})`, emails)));
    for (const d of found) donorOf.set(d.email, d.id);
  };
  await find([...firstByEmail.keys()]);
  const missing = [...firstByEmail].filter(([email]) => !donorOf.has(email));
  if (missing.length > 0) {
    // Raw statements with the batch as one JSON parameter: drizzle's builder renders every column
    // of every row (defaults included), which cost more CPU than Postgres spent on the rows.
    // In email order: two imports creating the same donors wait on each other's in one order.
    const newDonors = missing
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, d]) => ({ id: newId("dnr"), email: d.email, first_name: d.firstName, last_name: d.lastName }));
    const created = rowsOf<{ id: string; email: string }>(
      await tx.execute(sql`
        insert into ${donors} (id, org_id, email, first_name, last_name, source)
        select v.id, ${org.id}, v.email, v.first_name, v.last_name, 'IMPORT'
        from jsonb_to_recordset(${JSON.stringify(newDonors)}::jsonb) as v(id text, email text, first_name text, last_name text)
        on conflict do nothing
        returning id, lower(email) as email`),
    );
    for (const d of created) donorOf.set(d.email, d.id);
    // Created meanwhile by a concurrent gift or import: found now.
    const raced = missing.map(([email]) => email).filter((email) => !donorOf.has(email));
    if (raced.length > 0) await find(raced);
  }
  const values = todo.map((r) => ({
    id: newId("don"),
    campaignId: r.data.campaignId,
    donorId: donorOf.get(r.data.email.toLowerCase())!,
    amount: r.data.amountCents,
    email: r.data.email,
    firstName: r.data.firstName,
    lastName: r.data.lastName,
    method: r.data.method,
    reference: r.data.reference,
    externalId: r.data.externalId,
    succeededAt: r.data.receivedAt,
  }));
  const inserted = new Set(
    rowsOf<{ id: string }>(
      await tx.execute(sql`
        insert into ${donations} (id, org_id, campaign_id, donor_id, amount, currency, status, email, first_name, last_name,
                                  source, method, reference, external_id, import_id, succeeded_at)
        select v."id", ${org.id}, v."campaignId", v."donorId", v."amount", ${org.currency}, 'SUCCEEDED', v."email", v."firstName",
               v."lastName", 'IMPORT', v."method", v."reference", v."externalId", ${importId}, v."succeededAt"
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v("id" text, "campaignId" text, "donorId" text, "amount" integer,
          "email" text, "firstName" text, "lastName" text, "method" donation_method, "reference" text, "externalId" text, "succeededAt" timestamptz)
        on conflict do nothing
        returning id`),
    ).map((d) => d.id),
  );
  // The gifts applied, in the file's order: the order moveDonation would have moved them in.
  const gifts = values.map((v, i) => ({ ...v, row: todo[i].row, matched: 0 })).filter((g) => inserted.has(g.id));
  if (gifts.length === 0) return { applied: 0, skipped: todo.length };

  const locked = await lockCampaigns(
    tx,
    gifts.map((g) => g.campaignId),
  );
  // Each gift's match is decided as on the locked row when it succeeds: what is left under the
  // cap after every earlier success, gift after gift.
  const matchedSoFar = new Map<string, number>();
  const matches: { id: string; matched: number }[] = [];
  for (const g of gifts) {
    const c = locked.get(g.campaignId)!;
    if (!c.matchingEnabled) continue;
    const already = matchedSoFar.get(c.id) ?? c.matchedAmountCents;
    g.matched = matchFor(g.amount, c.matchingRatioPct, c.matchingMaxCents, already);
    matchedSoFar.set(c.id, already + g.matched);
    if (g.matched > 0) matches.push({ id: g.id, matched: g.matched });
  }
  await moveCampaigns(tx, campaignDeltas(locked, gifts, 1));
  if (matches.length > 0) {
    await tx.execute(sql`
      update ${donations} set matched_amount_cents = v.matched
      from jsonb_to_recordset(${JSON.stringify(matches)}::jsonb) as v(id text, matched integer)
      where ${donations.id} = v.id`);
  }
  await addDailyTotals(tx, org.id, gifts);
  // The names each donor's last gift gives (a later gift's names replace an earlier one's).
  const names = new Map<string, { firstName: string | null; lastName: string | null; locale: string | null }>();
  for (const g of gifts) {
    const n = names.get(g.donorId) ?? { firstName: null, lastName: null, locale: null };
    names.set(g.donorId, { firstName: g.firstName || n.firstName, lastName: g.lastName || n.lastName, locale: null });
  }
  await lockDonors(tx, names.keys());
  await addDonorGifts(tx, org.id, gifts, names);
  // One `import.applied` entry per gift, as moveDonation writes it (from, to, and the import's row).
  await tx.execute(sql`
    insert into ${donationEvents} (donation_id, type, data)
    select v.id, 'import.applied', jsonb_build_object('from', 'PENDING', 'to', 'SUCCEEDED', 'importId', ${importId}::text, 'row', v.row)
    from jsonb_to_recordset(${JSON.stringify(gifts.map((g) => ({ id: g.id, row: g.row })))}::jsonb) as v(id text, row integer)`);
  return { applied: gifts.length, skipped: todo.length - gifts.length };
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
