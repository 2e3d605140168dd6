import { and, desc, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { apiKeys, memberships, users, type ApiKey, type Role } from "@/db/schema";

/** A key with the person who created it (null once that user is gone). */
export type ApiKeyRow = ApiKey & { creator: { id: string; email: string; name: string | null } | null };

const creatorColumns = { id: users.id, email: users.email, name: users.name };

/** An organization's keys that are not revoked (expired ones included), newest first, with their creators. */
export async function listApiKeys(db: DbOrTx, orgId: string): Promise<ApiKeyRow[]> {
  const rows = await db
    .select({ key: apiKeys, creator: creatorColumns })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(and(eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => ({ ...r.key, creator: r.creator }));
}

/** One of an organization's keys that is not revoked, or undefined (also when it belongs to another organization). */
export async function findApiKey(db: DbOrTx, orgId: string, id: string): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .select({ key: apiKeys, creator: creatorColumns })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(and(eq(apiKeys.id, id), eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row && { ...row.key, creator: row.creator };
}

/**
 * The unrevoked key with this hash, with its creator's current role in the key's organization
 * (null when the creator is no longer a member, or gone).
 */
export async function findApiKeyByHash(db: DbOrTx, keyHash: string): Promise<{ key: ApiKey; creatorRole: Role | null } | undefined> {
  const [row] = await db
    .select({ key: apiKeys, creatorRole: memberships.role })
    .from(apiKeys)
    .leftJoin(memberships, and(eq(memberships.orgId, apiKeys.orgId), eq(memberships.userId, apiKeys.createdBy)))
    .where(and(eq(apiKeys.keyHash, keyHash), isNull(apiKeys.revokedAt)))
    .limit(1);
  return row;
}

/** Records a use of the key. */
export async function touchApiKey(db: DbOrTx, id: string, at: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
}

/** Revokes the key now; false when it was already revoked (or is not the organization's). */
export async function revokeApiKey(db: DbOrTx, orgId: string, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: at })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.orgId, orgId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}
