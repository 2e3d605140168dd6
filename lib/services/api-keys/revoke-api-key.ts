import type { Db } from "@/db";
import { revokeApiKey as markRevoked, type ApiKeyRow } from "@/db/queries/api-keys";
import { notFound } from "@/lib/errors";

/** Revokes a key at once: its next request answers 401. The row stays (revoked), for the record. */
export async function revokeApiKey(db: Db, apiKey: ApiKeyRow, now = new Date()): Promise<void> {
  if (!(await markRevoked(db, apiKey.orgId, apiKey.id, now))) throw notFound("not_found", "API key not found");
}
