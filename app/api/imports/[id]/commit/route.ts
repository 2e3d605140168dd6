import { auditContextOf } from "@/lib/api/audit";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { importScope } from "@/lib/api/scopes";
import { log, errorFields } from "@/lib/log";
import { idParam } from "@/lib/schemas/common";
import { importSchema, serializeImport } from "@/lib/schemas/imports";
import { drainImportsInBackground } from "@/lib/services/imports/apply-import";
import { commitImport } from "@/lib/services/imports/commit-import";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/imports/:id/commit: apply a checked import's valid rows in the background (ADMIN)
  POST: withRoute(
    {
      params: idParam,
      scope: importScope,
      hiddenFromOutsiders: true,
      role: "ADMIN",
      doc: {
        operationId: "commitImport",
        summary: "Commit an import",
        description:
          'Starts applying a `READY` import\'s valid rows in the background (`"IMPORTING"`, then `"DONE"`; `processed` counts ' +
          'the rows handled so far). Donors are matched by email or created; gifts are created `source: "IMPORT"`, SUCCEEDED, ' +
          "with their external ID; a row whose external ID was already imported is skipped and counted in `duplicates`. No " +
          "receipt emails and no per-gift webhooks: one `import.completed` event at the end.",
        tag: "Imports",
        success: 202,
        response: importSchema,
        responseDescription: "The import, now applying",
        notFound: "Import not found",
        conflicts: ["Only a READY import can be committed"],
      },
    },
    async (ctx) => {
      const committed = await commitImport(ctx.db, ctx.scope.imp, auditContextOf(ctx));
      drainImportsInBackground(ctx.db, (err) => log.error("import apply failed; the worker resumes it", errorFields(err)));
      return json(serializeImport(committed), { status: 202 });
    },
  ),
});
