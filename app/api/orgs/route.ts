import { findOrganization, listOrganizationsForUser } from "@/db/queries/organizations";
import { listOf } from "@/lib/api/openapi";
import { wholeListOf } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { createOrganizationBody, organizationSchema, organizationWithRoleSchema, serializeOrganization } from "@/lib/schemas/organizations";
import { createOrganization } from "@/lib/services/organizations/create-organization";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs: organizations the caller belongs to, newest first, with the caller's role (an API key: its own, with its role)
  GET: withRoute(
    {
      doc: {
        operationId: "listOrganizations",
        summary: "List the caller's organizations",
        description:
          "Organizations the caller belongs to, newest first, each with the caller's role. Not paged. " +
          "With an API key: just the key's organization, with the key's role.",
        tag: "Organizations",
        success: 200,
        response: listOf(organizationWithRoleSchema),
        responseDescription: "The caller's organizations",
      },
    },
    async ({ db, user, actor }) => {
      if (!user) {
        const org = actor?.type === "api_key" ? await findOrganization(db, actor.orgId) : undefined;
        const data = org && actor?.type === "api_key" ? [{ ...serializeOrganization(org), role: actor.role }] : [];
        return ok(wholeListOf(data));
      }
      const rows = await listOrganizationsForUser(db, user.id);
      return ok(wholeListOf(rows.map((r) => ({ ...serializeOrganization(r.org), role: r.role }))));
    },
  ),
  // POST /api/orgs: create an organization; the caller becomes its OWNER (a person, not an API key)
  POST: withRoute(
    {
      person: true,
      body: createOrganizationBody,
      doc: {
        operationId: "createOrganization",
        summary: "Create an organization",
        description: "The caller becomes its OWNER. Without `slug`, one is generated from the name.",
        tag: "Organizations",
        bodyExamples: {
          minimal: { summary: "Just a name (the slug is generated from it)", value: { name: "Riverside Food Bank" } },
          full: {
            summary: "With receipt details and branding",
            value: {
              name: "Riverside Food Bank",
              slug: "riverside-food-bank",
              notificationEmail: "donations@riverside.example.org",
              legalName: "Riverside Food Bank Inc.",
              taxId: "12-3456789",
              logoUrl: "https://riverside.example.org/logo.png",
              color: "#1a7f5a",
              currency: "usd",
            },
          },
        },
        success: 201,
        response: organizationSchema,
        responseDescription: "The new organization",
        conflicts: ["Organization slug is already taken", "Another organization already uses this custom domain"],
      },
    },
    async ({ db, user, body }) => {
      const org = await createOrganization(db, user, body);
      return created(serializeOrganization(org));
    },
  ),
});
