import { z } from "zod";
import { forbidden } from "@/lib/api/errors";
import { noContent, ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { updateMemberBody } from "@/lib/schemas/organizations";
import { changeMember } from "@/lib/services/organizations/members";

const params = z.object({ idOrSlug: z.string().min(1).max(100), userId: z.string().min(1).max(200) });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // PATCH /api/orgs/:idOrSlug/members/:userId: change a member's role (OWNER)
  PATCH: withRoute({ params, scope: orgScope, role: "OWNER", body: updateMemberBody }, async ({ db, scope, params, body }) =>
    ok(await changeMember(db, scope.orgId, params.userId, body.role)),
  ),
  // DELETE /api/orgs/:idOrSlug/members/:userId: remove a member (OWNER), or leave (any member, themselves)
  DELETE: withRoute({ params, scope: orgScope }, async ({ db, scope, params, user, role }) => {
    if (params.userId !== user.id && role !== "OWNER") throw forbidden();
    await changeMember(db, scope.orgId, params.userId, null);
    return noContent();
  }),
});
