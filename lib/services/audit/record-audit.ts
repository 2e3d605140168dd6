import type { DbOrTx } from "@/db";
import { auditLog } from "@/db/schema";
import type { Actor } from "@/lib/actor";
import type { AuditAction, AuditTargetType } from "@/lib/schemas/audit-log";

/** A donor acting on their own data from their account (an erasure needing no approval). */
export type DonorActor = { type: "donor"; id: string; label: string | null };

/** Who made a staff change and from where: the request's actor, ID and client IP. */
export type AuditContext = { actor: Actor | DonorActor; requestId: string; clientIp: string };

export type AuditEntryInput = {
  orgId: string;
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null };
  /** What changed: field names with their new values (never a secret); absent when the action says it all. */
  data?: Record<string, unknown>;
};

/** Long text (a campaign's story) is cut here: the entry says what changed, it is not a copy of the record. */
const MAX_STRING = 200;
const MAX_ARRAY = 20;

function compact(value: unknown): unknown {
  if (typeof value === "string") return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.slice(0, MAX_ARRAY).map(compact);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  return value === undefined ? null : value;
}

/**
 * Appends one entry to the organization's audit log. Call it with the transaction of the change
 * it records, so the change and its entry commit together or not at all. The table refuses
 * UPDATE and DELETE: an entry, once committed, stays as written.
 */
export async function recordAudit(tx: DbOrTx, ctx: AuditContext, entry: AuditEntryInput): Promise<void> {
  await tx.insert(auditLog).values({
    orgId: entry.orgId,
    actorType: ctx.actor.type,
    actorId: ctx.actor.id,
    actorLabel: ctx.actor.label,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    data: entry.data ? (compact(entry.data) as Record<string, unknown>) : null,
    requestId: ctx.requestId,
    clientIp: ctx.clientIp,
  });
}

/**
 * The fields of `next` whose values differ from `current` (compared as JSON), with their new
 * values: what an `*.updated` entry records.
 */
export function changedFields<T extends Record<string, unknown>>(current: T, next: Partial<T>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(next)) {
    if (v === undefined) continue;
    if (JSON.stringify(normalize(v)) !== JSON.stringify(normalize(current[k]))) out[k] = v;
  }
  return out;
}

function normalize(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : (v ?? null);
}
