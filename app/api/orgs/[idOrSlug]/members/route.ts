import { created, ok } from "@/lib/api/respond";
import { wholeList } from "@/lib/api/pagination";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { addMemberBody } from "@/lib/schemas/organizations";
import { addMember, listMembers } from "@/lib/services/organizations/members";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/members: everyone in the organization and their role (members)
  GET: withRoute({ params: orgParam, scope: orgScope }, async ({ db, scope }) => {
    const data = await listMembers(db, scope.orgId);
    return ok({ data, pagination: wholeList(data.length) });
  }),
  // POST /api/orgs/:idOrSlug/members: add someone by email (OWNER)
  POST: withRoute({ params: orgParam, scope: orgScope, role: "OWNER", body: addMemberBody }, async ({ db, scope, body }) =>
    created(await addMember(db, scope.orgId, body.email, body.role)),
  ),
});
