import { methods, orgScope, withRoute } from "@/lib/api/route";
import { orgParam } from "@/lib/schemas/common";
import { exportDonorsQuery } from "@/lib/schemas/donors";
import { csvResponse, exportFilename } from "@/lib/services/exports/csv";
import { exportDonorsCsv } from "@/lib/services/exports/export-donors";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/donors/export: the list's donors as a streamed CSV file (ADMIN: a bulk copy of donor data)
  GET: withRoute({ params: orgParam, scope: orgScope, role: "ADMIN", query: exportDonorsQuery }, async ({ db, scope, query }) =>
    csvResponse(await exportDonorsCsv(db, scope.org, query), exportFilename("donors", scope.org.slug)),
  ),
});
