import { listOrganizationsForUser } from "@/db/queries/organizations";
import { wholeList } from "@/lib/api/pagination";
import { created, ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { createOrganizationBody, serializeOrganization } from "@/lib/schemas/organizations";
import { createOrganization } from "@/lib/services/organizations/create-organization";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs: organizations the caller belongs to, newest first, with the caller's role
  GET: withRoute({}, async ({ db, user }) => {
    const rows = await listOrganizationsForUser(db, user.id);
    return ok({ data: rows.map((r) => ({ ...serializeOrganization(r.org), role: r.role })), pagination: wholeList(rows.length) });
  }),
  // POST /api/orgs: create an organization; the caller becomes its OWNER
  POST: withRoute({ body: createOrganizationBody }, async ({ db, user, body }) => {
    const org = await createOrganization(db, user, body);
    return created(serializeOrganization(org));
  }),
});
