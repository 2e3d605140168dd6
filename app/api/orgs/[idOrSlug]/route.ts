import { assertMaySetTwoFactorRequirement } from "@/lib/api/account-security";
import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { ORG_ADMIN_ROUTE, ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { organizationSchema, serializeOrganization, updateOrganizationBody } from "@/lib/schemas/organizations";
import { updateOrganization } from "@/lib/services/organizations/update-organization";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug: one organization (members)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      doc: {
        operationId: "getOrganization",
        summary: "Get an organization",
        tag: "Organizations",
        success: 200,
        response: organizationSchema,
        responseDescription: "The organization",
        notFound: "Organization not found",
      },
    },
    async ({ scope }) => ok(serializeOrganization(scope.org)),
  ),
  // PATCH /api/orgs/:idOrSlug: update its settings (ADMIN)
  PATCH: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      body: updateOrganizationBody,
      doc: {
        operationId: "updateOrganization",
        summary: "Update an organization's settings",
        tag: "Organizations",
        bodyExamples: {
          branding: {
            summary: "Change the colour and logo",
            value: { color: "#0b5cad", logoUrl: "https://riverside.example.org/logo-2.png" },
          },
        },
        success: 200,
        response: organizationSchema,
        responseDescription: "The updated organization",
        notFound: "Organization not found",
        description:
          "`requireTwoFactor` is the OWNER's alone (an admin or an API key sending a change of it gets 403), and needs the owner's own " +
          'two-factor on (else 409) and passed within 15 minutes (else 403 with `code: "recent_two_factor_required"`).',
        conflicts: [
          "Turn on two-factor authentication for your own account first",
          "Organization slug is already taken",
          "Another organization already uses this custom domain",
          "This organization has taken donations in <CURRENCY>; its currency can no longer change",
        ],
      },
    },
    async (ctx) => {
      if (ctx.body.requireTwoFactor !== undefined && ctx.body.requireTwoFactor !== ctx.scope.org.requireTwoFactor) {
        await assertMaySetTwoFactorRequirement(ctx, ctx.body.requireTwoFactor);
      }
      return ok(serializeOrganization(await updateOrganization(ctx.db, ctx.scope.org, ctx.body, auditContextOf(ctx))));
    },
  ),
});
