import type { Db } from "@/db";
import type { ApiKeyRow } from "@/db/queries/api-keys";
import { apiKeys, type Role, type User } from "@/db/schema";
import { roleSatisfies } from "@/lib/roles";
import { getEnv } from "@/lib/env";
import { fieldError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { CreateApiKeyInput } from "@/lib/schemas/api-keys";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { newApiKey } from "./key-secret";

/**
 * Creates an API key of the organization for `creator` (a person with `creatorRole` there). The
 * key never outranks its creator (and acts, later, with at most the creator's current role).
 * Only its SHA-256 hash is stored; the key itself is returned once, for the caller to show.
 * `gf_live_` keys with Stripe payments, `gf_test_` in sandbox mode. The audit entry (never the
 * key) commits with the insert.
 */
export async function createApiKey(
  db: Db,
  orgId: string,
  creator: { user: User; role: Role },
  input: CreateApiKeyInput,
  audit: AuditContext,
  now = new Date(),
): Promise<{ apiKey: ApiKeyRow; key: string }> {
  if (!roleSatisfies(creator.role, input.role)) {
    throw fieldError("role", "A key can't have a higher role than yours", "role_above_creator", { maximum: creator.role });
  }
  if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
    throw fieldError("expiresAt", "Must be in the future", "not_in_future");
  }
  const { key, prefix, keyHash } = newApiKey(getEnv().paymentsMode === "stripe" ? "live" : "test");
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        id: newId("key"),
        orgId,
        name: input.name,
        role: input.role,
        prefix,
        keyHash,
        createdBy: creator.user.id,
        expiresAt: input.expiresAt,
      })
      .returning();
    await recordAudit(tx, audit, {
      orgId,
      action: "api_key.created",
      target: { type: "api_key", id: inserted.id },
      data: { name: inserted.name, role: inserted.role, prefix: inserted.prefix, expiresAt: inserted.expiresAt },
    });
    return inserted;
  });
  const { id, email, name } = creator.user;
  return { apiKey: { ...row, creator: { id, email, name } }, key };
}
