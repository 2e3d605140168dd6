import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { importScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { importSchema, serializeImport } from "@/lib/schemas/imports";
import { undoImport } from "@/lib/services/imports/undo-import";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/imports/:id/undo: remove what a finished import created (ADMIN)
  POST: withRoute(
    {
      params: idParam,
      scope: importScope,
      hiddenFromOutsiders: true,
      role: "ADMIN",
      doc: {
        operationId: "undoImport",
        summary: "Undo an import",
        description:
          "Removes the gifts a `DONE` import created, and the donors it created that have no other gifts; every campaign, " +
          'donor and report total returns to what it was. The import becomes `"UNDONE"`.',
        tag: "Imports",
        success: 200,
        response: importSchema,
        responseDescription: "The undone import",
        notFound: "Import not found",
        conflicts: ["Only a finished import can be undone"],
      },
    },
    async (ctx) => ok(serializeImport(await undoImport(ctx.db, ctx.scope.imp, auditContextOf(ctx)))),
  ),
});
