import type { Db } from "@/db";
import { revokeApiKey as markRevoked, type ApiKeyRow } from "@/db/queries/api-keys";
import { notFound } from "@/lib/errors";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/**
 * Revokes a key at once: its next request answers 401. The row stays (revoked), for the record,
 * and the audit entry commits with the revocation.
 */
export async function revokeApiKey(db: Db, apiKey: ApiKeyRow, audit: AuditContext, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await markRevoked(tx, apiKey.orgId, apiKey.id, now))) throw notFound("not_found", "API key not found");
    await recordAudit(tx, audit, {
      orgId: apiKey.orgId,
      action: "api_key.revoked",
      target: { type: "api_key", id: apiKey.id },
      data: { name: apiKey.name, prefix: apiKey.prefix },
    });
  });
}
