import { listApiKeys } from "@/db/queries/api-keys";
import { auditContextOf } from "@/lib/api/audit";
import { listOf } from "@/lib/api/openapi";
import { wholeListOf } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { ORG_ADMIN_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { apiKeySchema, apiKeyWithSecretSchema, createApiKeyBody, serializeApiKey, serializeApiKeyWithSecret } from "@/lib/schemas/api-keys";
import { createApiKey } from "@/lib/services/api-keys/create-api-key";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/api-keys: the organization's API keys that are not revoked, newest first, never the keys themselves (ADMIN)
  GET: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      doc: {
        operationId: "listApiKeys",
        summary: "List the organization's API keys",
        description:
          "Newest first, not paged; revoked keys are left out, expired ones listed. The keys themselves are never listed, only their `prefix`.",
        tag: "API keys",
        success: 200,
        response: listOf(apiKeySchema),
        responseDescription: "The keys",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope }) => {
      const rows = await listApiKeys(db, scope.orgId);
      return ok(wholeListOf(rows.map(serializeApiKey)));
    },
  ),
  // POST /api/orgs/:idOrSlug/api-keys: create a key; the answer shows it, once (ADMIN, a person)
  POST: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      person: true,
      sensitive: true,
      body: createApiKeyBody,
      doc: {
        operationId: "createApiKey",
        summary: "Create an API key",
        description:
          "The answer includes the `key`, shown only here (only a hash is stored). Send it as `Authorization: Bearer gf_…`: it acts " +
          "on this organization only, with its `role` (`ADMIN` or `MEMBER`, never above yours; later capped by your current role, and it " +
          "stops working if you leave the organization), until it expires or is revoked.",
        tag: "API keys",
        bodyExamples: {
          readOnly: { summary: "A read-only key for reporting", value: { name: "Reporting", role: "MEMBER" } },
          expiring: { summary: "An admin key that expires", value: { name: "CRM sync", role: "ADMIN", expiresAt: "2030-01-31T00:00:00Z" } },
        },
        success: 201,
        response: apiKeyWithSecretSchema,
        responseDescription: "The new key, with the key itself",
        notFound: "Organization not found",
      },
    },
    async (ctx) => {
      const { db, scope, user, role, body } = ctx;
      const { apiKey, key } = await createApiKey(db, scope.orgId, { user, role: role! }, body, auditContextOf(ctx));
      return created(serializeApiKeyWithSecret(apiKey, key));
    },
  ),
});
