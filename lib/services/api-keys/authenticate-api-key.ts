import type { DbOrTx } from "@/db";
import { findApiKeyByHash, touchApiKey } from "@/db/queries/api-keys";
import type { Role } from "@/db/schema";
import { roleSatisfies } from "@/lib/roles";
import { API_KEY_PATTERN, hashApiKey } from "./key-secret";

/** `lastUsedAt` is written at most this often per key, not on every request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** A key that authenticated a request, and the role it acts with in its organization. */
export type AuthenticatedApiKey = { id: string; orgId: string; name: string; role: "ADMIN" | "MEMBER" };

/**
 * The key a Bearer value names, or null when it is malformed, unknown, revoked or expired, or
 * when its creator no longer belongs to its organization. A key never outranks its creator: it
 * acts with its own role or the creator's current one, whichever is lower. Records the use in
 * `lastUsedAt` when the last record is over a minute old.
 */
export async function authenticateApiKey(db: DbOrTx, presented: string, now = new Date()): Promise<AuthenticatedApiKey | null> {
  if (!API_KEY_PATTERN.test(presented)) return null;
  const found = await findApiKeyByHash(db, hashApiKey(presented));
  if (!found) return null;
  const { key, creatorRole } = found;
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return null;
  if (!creatorRole || key.role === "OWNER") return null;
  const role: Role = roleSatisfies(creatorRole, key.role) ? key.role : creatorRole;
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) await touchApiKey(db, key.id, now);
  return { id: key.id, orgId: key.orgId, name: key.name, role: role as "ADMIN" | "MEMBER" };
}
