import { z } from "zod";
import { auditContextOf } from "@/lib/api/audit";
import { noContent, ok } from "@/lib/api/respond";
import { methods, orgScope, withRoute } from "@/lib/api/route";
import { memberSchema, updateMemberBody } from "@/lib/schemas/organizations";
import { changeMember } from "@/lib/services/organizations/members";

const params = z.object({ idOrSlug: z.string().min(1).max(100), userId: z.string().min(1).max(200) });
const NOT_FOUND = "Organization not found, or Member not found";
const LAST_OWNER = "An organization needs at least one owner";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // PATCH /api/orgs/:idOrSlug/members/:userId: change a member's role (OWNER)
  PATCH: withRoute(
    {
      params,
      scope: orgScope,
      role: "OWNER",
      person: true,
      sensitive: true,
      body: updateMemberBody,
      doc: {
        operationId: "updateMember",
        summary: "Change a member's role",
        tag: "Members",
        success: 200,
        response: memberSchema,
        responseDescription: "The membership with its new role",
        notFound: NOT_FOUND,
        conflicts: [LAST_OWNER],
      },
    },
    async (ctx) => ok(await changeMember(ctx.db, ctx.scope.orgId, ctx.params.userId, ctx.body.role, auditContextOf(ctx))),
  ),
  // DELETE /api/orgs/:idOrSlug/members/:userId: remove a member (OWNER), or leave (any member, themselves)
  DELETE: withRoute(
    {
      params,
      scope: orgScope,
      role: "OWNER",
      person: true,
      orSelf: "userId",
      doc: {
        operationId: "removeMember",
        summary: "Remove a member, or leave the organization",
        description: "An OWNER can remove anyone; any member can remove themselves (leave).",
        tag: "Members",
        success: 204,
        responseDescription: "Removed",
        notFound: NOT_FOUND,
        conflicts: [LAST_OWNER],
      },
    },
    async (ctx) => {
      await changeMember(ctx.db, ctx.scope.orgId, ctx.params.userId, null, auditContextOf(ctx));
      return noContent();
    },
  ),
});
