import { methods, withRoute } from "@/lib/api/route";
import { clearDonorSessionCookie, revokeDonorSession } from "@/lib/auth/donor-session";
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
        description:
          "Ends the donor's session on the server (the cookie, and any copy of it, no longer signs anyone in) and clears " +
          "the donor cookie of this organization (other organizations' sessions stay).",
        tag: "Donor account",
        success: 204,
        responseDescription: "Signed out; the response clears the cookie",
      },
    },
    async ({ db, req, org }) => {
      await revokeDonorSession(db, req, org);
      return new Response(null, { status: 204, headers: { "Set-Cookie": clearDonorSessionCookie(org.id) } });
    },
  ),
});
