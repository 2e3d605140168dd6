import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { importScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { importSchema, serializeImport } from "@/lib/schemas/imports";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/imports/:id: one import with its progress (member)
  GET: withRoute(
    {
      params: idParam,
      scope: importScope,
      hiddenFromOutsiders: true,
      doc: {
        operationId: "getImport",
        summary: "Get an import",
        description: "One import: its status, counts, per-row errors, preview, and while it applies, `processed` (its progress).",
        tag: "Imports",
        success: 200,
        response: importSchema,
        responseDescription: "The import",
        notFound: "Import not found",
      },
    },
    async ({ scope }) => ok(serializeImport(scope.imp)),
  ),
});
