import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { ORG_ADMIN_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { organizationSchema, serializeOrganization } from "@/lib/schemas/organizations";
import { verifyCustomDomain } from "@/lib/services/organizations/verify-custom-domain";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/custom-domain/verify: check the custom domain's TXT record and serve the domain (ADMIN)
  POST: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      doc: {
        operationId: "verifyCustomDomain",
        summary: "Verify the organization's custom domain",
        description:
          "Looks up the TXT record `customDomainVerification` names (`_goodfund.{customDomain}`). When one of its values is " +
          "the organization's, the domain becomes VERIFIED: from then on it serves the organization's donate pages and is " +
          "used in `donateBaseUrl`. Otherwise 409, saying what is wrong (no record, another value, or a DNS failure); fix " +
          "the record and call again. An already VERIFIED domain answers as it is.",
        tag: "Organizations",
        success: 200,
        response: organizationSchema,
        responseDescription: 'The organization, with `customDomainStatus: "VERIFIED"`',
        notFound: "Organization not found",
        conflicts: [
          "This organization has no custom domain to verify",
          "No TXT record found at _goodfund.<DOMAIN>: add the record shown, then verify again (DNS changes can take a while to appear)",
          'The TXT record at _goodfund.<DOMAIN> does not hold the expected value (found "<VALUE>")',
          "The DNS lookup of _goodfund.<DOMAIN> failed (<CODE>); try again in a few minutes",
          "Another organization already uses this custom domain",
          "The custom domain changed while it was being verified; verify again",
        ],
      },
    },
    async (ctx) => ok(serializeOrganization(await verifyCustomDomain(ctx.db, ctx.scope.org, auditContextOf(ctx)))),
  ),
});
