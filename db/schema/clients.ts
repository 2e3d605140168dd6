import { bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamptz } from "./columns";
import { roleEnum, users } from "./auth";
import { organizations } from "./organizations";

/**
 * API keys of external clients, one organization each. Only a SHA-256 hash of the key is kept
 * (keys are 32 random bytes, so a plain hash can't be reversed); `prefix` is what lists show.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text().primaryKey(),
    orgId: belongsTo(() => organizations.id),
    name: text().notNull(),
    role: roleEnum().notNull(),
    prefix: text().notNull(),
    keyHash: text().notNull(),
    createdBy: text().references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: timestamptz(),
    lastUsedAt: timestamptz(),
    revokedAt: timestamptz(),
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.keyHash), index("api_keys_org_created_idx").on(t.orgId, t.createdAt)],
);

/**
 * Idempotency-Key records: the first request with a key claims the row (`state` running), runs,
 * then stores its answer (`done`). The response body is stored encrypted: it may hold a secret
 * shown once (a new API key, a webhook signing secret).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    /** Who sent it: `user:<id>`, `key:<id>` or `ip:<client ip>`. */
    caller: text().notNull(),
    key: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    /** SHA-256 of the request body, to tell a replay from a different request under the same key. */
    requestHash: text().notNull(),
    state: text().notNull().default("running"),
    responseStatus: integer(),
    responseHeaders: jsonb().$type<Record<string, string>>(),
    responseBody: text(),
    createdAt: createdAt(),
    completedAt: timestamptz(),
  },
  (t) => [uniqueIndex("idempotency_keys_caller_key").on(t.caller, t.key), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Append-only record of staff changes (a trigger refuses UPDATE and DELETE). Written in the
 * transaction of the change it records. No foreign key: the record outlives what it names.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial({ mode: "number" }).primaryKey(),
    orgId: text().notNull(),
    /** "user" or "api_key". */
    actorType: text().notNull(),
    actorId: text().notNull(),
    /** The user's email or the key's name at the time, so the record reads well after renames. */
    actorLabel: text(),
    action: text().notNull(),
    targetType: text().notNull(),
    targetId: text(),
    data: jsonb().$type<Record<string, unknown>>(),
    requestId: text(),
    clientIp: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_org_id_idx").on(t.orgId, t.id.desc()),
    index("audit_log_org_action_idx").on(t.orgId, t.action, t.id.desc()),
    index("audit_log_org_actor_idx").on(t.orgId, t.actorId, t.id.desc()),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;
export type IdempotencyRecord = typeof idempotencyKeys.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
