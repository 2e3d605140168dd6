import { listDonorNotes } from "@/db/queries/donor-notes";
import { listOf } from "@/lib/api/openapi";
import { pageList, pageOf } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { donorScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { createDonorNoteBody, donorNoteSchema, listDonorNotesQuery, serializeDonorNote } from "@/lib/schemas/donors";
import { addDonorNote } from "@/lib/services/donors/add-donor-note";

const NOTES_DEFAULT_LIMIT = 50;

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/donors/:id/notes: staff notes on a donor, newest first (members)
  GET: withRoute(
    {
      params: idParam,
      scope: donorScope,
      query: listDonorNotesQuery,
      doc: {
        operationId: "listDonorNotes",
        summary: "List a donor's notes",
        description: `Staff notes on the donor, newest first, page-based (\`limit\` defaults to ${NOTES_DEFAULT_LIMIT}). Notes are never shown to donors.`,
        tag: "Donors",
        success: 200,
        response: listOf(donorNoteSchema),
        responseDescription: "A page of notes",
        notFound: "Donor not found",
      },
    },
    async ({ db, scope, query }) => {
      const page = pageOf(query, NOTES_DEFAULT_LIMIT);
      const { rows, total } = await listDonorNotes(db, scope.donor.id, page);
      return ok(pageList(rows.map(serializeDonorNote), page, total));
    },
  ),
  // POST /api/donors/:id/notes: add a staff note to a donor (members)
  POST: withRoute(
    {
      params: idParam,
      scope: donorScope,
      body: createDonorNoteBody,
      doc: {
        operationId: "createDonorNote",
        summary: "Add a note to a donor",
        description: "A staff note (1–5 000 characters, HTML stripped), signed by the caller (no author for an API key).",
        tag: "Donors",
        success: 201,
        response: donorNoteSchema,
        responseDescription: "The note",
        notFound: "Donor not found",
      },
    },
    async ({ db, scope, actor, body }) => created(serializeDonorNote(await addDonorNote(db, scope.donor, actor, body.body))),
  ),
});
