import { ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { serializeOrganization, updateOrganizationBody } from "@/lib/schemas/organizations";
import { updateOrganization } from "@/lib/services/organizations/update-organization";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug: one organization (members)
  GET: withRoute({ params: orgParam, scope: orgScope }, async ({ scope }) => ok(serializeOrganization(scope.org))),
  // PATCH /api/orgs/:idOrSlug: update its settings (ADMIN)
  PATCH: withRoute(
    { params: orgParam, scope: orgScope, role: "ADMIN", body: updateOrganizationBody },
    async ({ db, scope, body }) => ok(serializeOrganization(await updateOrganization(db, scope.org, body))),
  ),
});
