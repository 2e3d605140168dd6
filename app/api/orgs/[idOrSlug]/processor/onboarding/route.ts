import { z } from "zod";
import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { startOnboarding } from "@/lib/services/organizations/start-onboarding";

const onboardingLink = z.object({ processorAccountId: z.string(), url: z.string() }).meta({ id: "OnboardingLink" });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/processor/onboarding: connect the payout account; answers { processorAccountId, url } (OWNER)
  POST: withRoute(
    {
      ...ORG_ROUTE,
      role: "OWNER",
      sensitive: true,
      doc: {
        operationId: "startProcessorOnboarding",
        summary: "Connect the organization's payout account",
        description:
          "Creates the connected account once and answers a fresh onboarding link. The organization becomes ACTIVE " +
          "(able to take donations) when the processor reports charges and payouts enabled (`account.updated`).",
        tag: "Processor",
        success: 200,
        response: onboardingLink,
        responseDescription: "The account and where to send the owner",
        notFound: "Organization not found",
      },
    },
    async (ctx) => ok(await startOnboarding(ctx.db, await getProcessor(), ctx.scope.org, auditContextOf(ctx))),
  ),
});
