import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { clearDonorSessionCookie } from "@/lib/auth/donor-session";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { donorOrgParam } from "@/lib/schemas/donor-account";
import { erasureRequestResultSchema } from "@/lib/schemas/donor-data";
import { requestErasure } from "@/lib/services/donors/donor-requests";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donor/orgs/:orgSlug/erasure: the signed-in donor asks to have their personal data erased (donor cookie)
  POST: withRoute(
    {
      auth: "donor",
      params: donorOrgParam,
      doc: {
        operationId: "requestOwnErasure",
        summary: "Erase my personal data",
        description:
          "When the organization does not review erasure requests, the donor is erased now (their open recurring plans " +
          "canceled, their name, email, messages and dedications removed; the gifts stay, anonymized) and signed out: " +
          '200 `{ "status": "ERASED" }` with the donor cookie cleared. When it does (`donorErasureNeedsApproval`), the ' +
          'request waits for an admin and staff are told by email: 202 `{ "status": "PENDING" }` (asking again answers ' +
          "the same pending request).",
        tag: "Donor account",
        success: 202,
        response: erasureRequestResultSchema,
        responseDescription: "The request is pending (202), or done (200)",
      },
    },
    async ({ db, org, donor, requestId, clientIp }) => {
      const outcome = await requestErasure(db, await getProcessor(), org, donor, { requestId, clientIp });
      if (outcome.status === "PENDING") return json(outcome, { status: 202 });
      return json(outcome, { status: 200, headers: { "Set-Cookie": clearDonorSessionCookie(org.id) } });
    },
  ),
});
