import { methods, withRoute } from "@/lib/api/route";
import { clearDonorSessionCookie } from "@/lib/auth/donor-session";
import { donorOrgParam } from "@/lib/schemas/donor-account";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // DELETE /api/donor/orgs/:orgSlug/session: sign the donor out of this organization's account (donor)
  DELETE: withRoute(
    {
      auth: "donor",
      params: donorOrgParam,
      doc: {
        operationId: "deleteDonorSession",
        summary: "Sign the donor out",
        description: "Clears the donor cookie of this organization (other organizations' cookies stay).",
        tag: "Donor account",
        success: 204,
        responseDescription: "Signed out; the response clears the cookie",
      },
    },
    async ({ org }) => new Response(null, { status: 204, headers: { "Set-Cookie": clearDonorSessionCookie(org.id) } }),
  ),
});
