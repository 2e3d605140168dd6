import { auditContextOf } from "@/lib/api/audit";
import { listOf } from "@/lib/api/openapi";
import { wholeListOf } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { addMemberBody, memberSchema } from "@/lib/schemas/organizations";
import { addMember, listMembers } from "@/lib/services/organizations/members";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/members: everyone in the organization and their role (members)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      doc: {
        operationId: "listMembers",
        summary: "List an organization's members",
        description: "Everyone in the organization and their role, oldest membership first. Not paged.",
        tag: "Members",
        success: 200,
        response: listOf(memberSchema),
        responseDescription: "The members",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope }) => {
      return ok(wholeListOf(await listMembers(db, scope.orgId)));
    },
  ),
  // POST /api/orgs/:idOrSlug/members: add someone by email (OWNER)
  POST: withRoute(
    {
      ...ORG_ROUTE,
      role: "OWNER",
      person: true,
      body: addMemberBody,
      doc: {
        operationId: "addMember",
        summary: "Add a member by email",
        description:
          "Someone who has never signed in is matched to this membership on their first sign-in with that email. The new member is emailed an invitation (once) with a link to sign in.",
        tag: "Members",
        bodyExamples: { admin: { summary: "Add an administrator", value: { email: "sam@example.org", role: "ADMIN" } } },
        success: 201,
        response: memberSchema,
        responseDescription: "The new membership",
        notFound: "Organization not found",
        conflicts: ["User is already a member of this organization"],
      },
    },
    async (ctx) => {
      const { db, scope, body, user } = ctx;
      const invitedBy = user ? { name: user.name, email: user.email } : null;
      return created(await addMember(db, scope.org, body.email, body.role, invitedBy, auditContextOf(ctx)));
    },
  ),
});
