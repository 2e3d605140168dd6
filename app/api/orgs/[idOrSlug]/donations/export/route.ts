import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { exportDonationsQuery } from "@/lib/schemas/donations";
import { csvResponse, exportFilename } from "@/lib/services/exports/csv";
import { exportDonationsCsv } from "@/lib/services/exports/export-donations";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/donations/export: the list's donations as a streamed CSV file (ADMIN: a bulk copy of donor data)
  GET: withRoute({ params: orgParam, scope: orgScope, role: "ADMIN", query: exportDonationsQuery }, async ({ db, scope, query }) =>
    csvResponse(await exportDonationsCsv(db, scope.org, query), exportFilename("donations", scope.org.slug)),
  ),
});
