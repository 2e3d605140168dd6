import { and, desc, eq, lt, max } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { auditLog, type AuditEntry } from "@/db/schema";
import { keysetPage, type Keyset, type KeysetPage } from "./rows";

/** Where a page of the newest-first audit log ends: the last entry's ID (IDs only grow). */
export type AuditCursor = { id: number };

/** Only entries of this action, or by this actor (a user's or an API key's ID). */
export type AuditLogFilter = { action?: string; actor?: string };

/** A page of an organization's audit log, newest first; `nextCursor` is null on the last page. */
export async function listAuditLogPage(
  db: DbOrTx,
  orgId: string,
  filter: AuditLogFilter,
  page: KeysetPage<AuditCursor>,
): Promise<Keyset<AuditEntry, AuditCursor>> {
  const conditions = [eq(auditLog.orgId, orgId)];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.actor) conditions.push(eq(auditLog.actorId, filter.actor));
  if (page.cursor) conditions.push(lt(auditLog.id, page.cursor.id));
  const found = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(page.limit + 1);
  return keysetPage(found, page.limit, (last) => ({ id: last.id }));
}

export type AuditActorOption = { type: string; id: string; label: string | null };

/** Everyone who has changed something in the organization (its latest label each), most recent first. */
export async function listAuditActors(db: DbOrTx, orgId: string, limit = 200): Promise<AuditActorOption[]> {
  const latest = db
    .select({ actorId: auditLog.actorId, lastId: max(auditLog.id).as("last_id") })
    .from(auditLog)
    .where(eq(auditLog.orgId, orgId))
    .groupBy(auditLog.actorId)
    .as("latest");
  return db
    .select({ type: auditLog.actorType, id: auditLog.actorId, label: auditLog.actorLabel })
    .from(latest)
    .innerJoin(auditLog, eq(auditLog.id, latest.lastId))
    .orderBy(desc(latest.lastId))
    .limit(limit);
}
