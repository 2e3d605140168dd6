import { csvBody, csvFormat } from "@/lib/api/openapi";
import { ORG_ADMIN_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { exportDonorsQuery } from "@/lib/schemas/donors";
import { csvResponse, exportFilename } from "@/lib/services/exports/csv";
import { exportDonorsCsv } from "@/lib/services/exports/export-donors";

const COLUMNS =
  "id, email, firstName, lastName, totalGiven, totalGivenCents, currency, donationCount, firstDonationAt, lastDonationAt, phone, " +
  "addressLine1, addressLine2, city, region, postalCode, country, tags (separated by `; `), emailOptIn, source, createdAt";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/donors/export: the list's donors as a streamed CSV file (ADMIN: a bulk copy of donor data)
  GET: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      overload: "reports",
      query: exportDonorsQuery,
      doc: {
        operationId: "exportDonors",
        summary: "Export donors as CSV",
        description: `Every donor the list would answer for the same \`q\`, \`tag\`, \`sort\` and \`order\`, as a CSV file (\`donors-<org-slug>-<YYYY-MM-DD>.csv\`); totals in the organization's currency. ${csvFormat("totalGiven", "totalGivenCents")}`,
        tag: "Donors",
        success: 200,
        response: csvBody(COLUMNS),
        responseMediaType: "text/csv",
        responseDescription: "The CSV file",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => csvResponse(await exportDonorsCsv(db, scope.org, query), exportFilename("donors", scope.org.slug)),
  ),
});
