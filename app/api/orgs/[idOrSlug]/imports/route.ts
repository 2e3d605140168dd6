import { listImports } from "@/db/queries/imports";
import { ApiError } from "@/lib/api/errors";
import { ORG_ADMIN_ROUTE, ORG_ROUTE } from "@/lib/api/org-route";
import { listOf } from "@/lib/api/openapi";
import { pageList, pageOf } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { createImportQuery, importCsvBody, importSchema, listImportsQuery, serializeImport } from "@/lib/schemas/imports";
import { checkImport, FileTooLarge, MAX_IMPORT_BYTES, UnreadableFile } from "@/lib/services/imports/check-import";

const CSV_TYPES = new Set(["text/csv", "application/csv", "text/plain", "application/vnd.ms-excel"]);

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/imports: the organization's imports, newest first (member)
  GET: withRoute(
    {
      ...ORG_ROUTE,
      query: listImportsQuery,
      doc: {
        operationId: "listImports",
        summary: "List imports",
        description: "The organization's CSV imports, newest first, with their counts and status: the import history.",
        tag: "Imports",
        success: 200,
        response: listOf(importSchema),
        responseDescription: "A page of imports",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) => {
      const page = pageOf(query, 25);
      const { rows, total } = await listImports(db, scope.org.id, page);
      return ok(pageList(rows.map(serializeImport), page, total));
    },
  ),

  // POST /api/orgs/:idOrSlug/imports: upload and check a CSV file of gifts (ADMIN)
  POST: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      query: createImportQuery,
      uploadBytes: MAX_IMPORT_BYTES,
      doc: {
        operationId: "createImport",
        summary: "Upload and check a CSV import",
        description:
          "Reads a CSV export of donors and gifts (`Content-Type: text/csv`, at most 20 MiB) through a preset: Goodfund's " +
          "own columns, or Givebutter's, Donorbox's or Stripe's export. Every row is checked (per-row errors with row, field " +
          "and code; the header is row 1) and the first 20 are shown as they will be read. Nothing is applied until " +
          '`POST /api/imports/:id/commit`: the import is `READY`. A body that is not a CSV file answers 400 (the import is kept as `"FAILED"`).',
        tag: "Imports",
        rawBody: importCsvBody,
        success: 201,
        response: importSchema,
        responseDescription: "The checked import",
        notFound: "Organization not found",
      },
    },
    async ({ db, req, scope, query, user }) => {
      const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
      if (!CSV_TYPES.has(type)) throw new ApiError(415, "Content-Type must be text/csv");
      const declared = Number(req.headers.get("content-length"));
      if (Number.isFinite(declared) && declared > MAX_IMPORT_BYTES) throw new ApiError(413, "Request body too large (limit 20 MiB)");
      try {
        const imp = await checkImport(db, scope.org, {
          preset: query.preset,
          body: req.body,
          defaultCampaign: query.campaignId,
          userId: user?.id ?? null,
        });
        return created(serializeImport(imp));
      } catch (err) {
        if (err instanceof FileTooLarge) throw new ApiError(413, err.message);
        if (err instanceof UnreadableFile) throw new ApiError(400, err.message);
        throw err;
      }
    },
  ),
});
