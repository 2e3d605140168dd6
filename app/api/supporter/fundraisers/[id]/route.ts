import { eq } from "drizzle-orm";
import { findSupporterPage } from "@/db/queries/fundraisers";
import { campaigns, organizations } from "@/db/schema";
import { forbidden, notFound, unauthorized } from "@/lib/api/errors";
import { ok } from "@/lib/api/respond";
import { isAllowedDonorWrite, methods, withRoute } from "@/lib/api/route";
import { authenticateDonorRequest } from "@/lib/auth/donor-session";
import { idParam } from "@/lib/schemas/common";
import { fundraiserPageSchema, serializeFundraiserPage, updateFundraiserBody } from "@/lib/schemas/fundraisers";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { updateSupporterPage } from "@/lib/services/fundraisers/manage-fundraisers";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // PATCH /api/supporter/fundraisers/:id: the supporter edits their own page (donor cookie of the page's organization)
  PATCH: withRoute(
    {
      auth: "public",
      params: idParam,
      body: updateFundraiserBody,
      doc: {
        operationId: "updateSupporterFundraiser",
        summary: "Edit the supporter's own fundraiser page",
        description:
          "Title, story (HTML is stripped, as in campaign descriptions), goal, cover image URL, and whether gifts are " +
          "emailed to the supporter. Authenticated by the donor cookie of the page's organization (same-origin writes " +
          "only); a page that is not the signed-in supporter's answers 404.",
        tag: "Supporter pages",
        success: 200,
        response: fundraiserPageSchema,
        responseDescription: "The updated page",
        notFound: "Not found",
        bodyExamples: { story: { summary: "Tell the story", value: { story: "I run 10 km for clean water.", goalAmountCents: 100_000 } } },
      },
    },
    async ({ db, req, params, body }) => {
      const [row] = await db
        .select({ orgId: campaigns.orgId, org: organizations })
        .from(campaigns)
        .innerJoin(organizations, eq(organizations.id, campaigns.orgId))
        .where(eq(campaigns.id, params.id))
        .limit(1);
      // Without any donor cookie nobody is signed in, whatever the ID names.
      const cookies = req.headers.get("cookie") ?? "";
      if (!row) throw cookies.includes("gf_donor_") ? notFound() : unauthorized();
      const donor = await authenticateDonorRequest(db, req, row.org);
      if (!donor) throw unauthorized();
      if (!isAllowedDonorWrite(req, row.org)) throw forbidden();
      const page = await findSupporterPage(db, row.orgId, donor.id, params.id);
      if (!page) throw notFound();
      return ok(serializeFundraiserPage(await updateSupporterPage(db, page, body), donateBaseUrl(row.org)));
    },
  ),
});
