import { chooseLocale } from "@/lib/i18n/locales";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { findOrganizationBySlug } from "@/lib/auth/donor-session";
import { donorOrgParam, donorSignInAnswer, donorSignInBody } from "@/lib/schemas/donor-account";
import { requestDonorSignInLink } from "@/lib/services/donor-accounts/request-sign-in-link";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/public/orgs/:orgSlug/donor-sessions: email a donor a sign-in link to their account (public)
  POST: withRoute(
    {
      auth: "public",
      params: donorOrgParam,
      body: donorSignInBody,
      doc: {
        operationId: "createDonorSession",
        summary: "Email a donor a sign-in link to their account",
        description:
          "If the organization has a donor with this email (any case), emails them a link to `{donateBaseUrl}/account/sign-in` " +
          "that works once, within 15 minutes; opening it and continuing sets the donor cookie. The answer is the same " +
          "202 `{ sent: true }` whatever the address, and for an unknown organization too, so it never tells whether someone " +
          "gave. Limited per client IP (10) and per organization and address (5) per 15 minutes, besides the public limit.",
        tag: "Donor account",
        success: 202,
        response: donorSignInAnswer,
        responseDescription: "Accepted: a link was emailed if the address is a donor's",
        bodyExamples: { signIn: { summary: "Ask for a link", value: { email: "maya.okafor@example.org" } } },
      },
    },
    async ({ db, params, body, clientIp, req }) => {
      const org = await findOrganizationBySlug(db, params.orgSlug);
      if (org) {
        const locale = body.locale ?? chooseLocale({ acceptLanguage: req.headers.get("accept-language"), orgDefault: org.defaultLocale });
        await requestDonorSignInLink(db, org, { email: body.email, clientIp, locale });
      }
      return json({ sent: true }, { status: 202 });
    },
  ),
});
