import type { Db } from "@/db";
import { findApiKey } from "@/db/queries/api-keys";
import { notFound } from "@/lib/api/errors";
import { auditContextOf } from "@/lib/api/audit";
import { noContent } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { apiKeyParams } from "@/lib/schemas/api-keys";
import { revokeApiKey } from "@/lib/services/api-keys/revoke-api-key";

const API_KEY_NOT_FOUND = "API key not found";

/** The organization, then its unrevoked key (404 before 403). */
async function apiKeyScope({ db, params }: { db: Db; params: { idOrSlug: string; id: string } }) {
  const { org } = await orgScope({ db, params });
  const apiKey = await findApiKey(db, org.id, params.id);
  if (!apiKey) throw notFound(API_KEY_NOT_FOUND);
  return { orgId: org.id, org, apiKey };
}

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // DELETE /api/orgs/:idOrSlug/api-keys/:id: revoke a key; it answers 401 from then on (ADMIN, a person)
  DELETE: withRoute(
    {
      params: apiKeyParams,
      scope: apiKeyScope,
      role: "ADMIN",
      person: true,
      doc: {
        operationId: "revokeApiKey",
        summary: "Revoke an API key",
        description: "At once: every later request with the key answers 401. It leaves the list.",
        tag: "API keys",
        success: 204,
        responseDescription: "Revoked",
        notFound: `Organization not found, or ${API_KEY_NOT_FOUND}`,
      },
    },
    async (ctx) => {
      await revokeApiKey(ctx.db, ctx.scope.apiKey, auditContextOf(ctx));
      return noContent();
    },
  ),
});
