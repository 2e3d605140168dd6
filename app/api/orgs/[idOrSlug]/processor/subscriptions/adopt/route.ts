import { auditContextOf } from "@/lib/api/audit";
import { z } from "zod";
import { ok } from "@/lib/api/respond";
import { ORG_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { adoptSubscriptions } from "@/lib/services/recurring/adopt-subscriptions";
import { getProcessor } from "@/lib/services/processor/get-processor";

const adoptBody = z
  .object({
    campaignId: z.string().min(1).max(100).meta({ description: "The campaign the adopted plans (and their renewals) count toward." }),
  })
  .strict();

const adoptionResult = z
  .object({
    adopted: z.number().int().meta({ description: "Subscriptions that became recurring plans now." }),
    alreadyKnown: z.number().int().meta({ description: "Active subscriptions a plan already carries (made here, or adopted before)." }),
    skipped: z
      .array(z.object({ subscriptionId: z.string(), reason: z.enum(["no_email", "currency_not_accepted", "interval_not_supported"]) }))
      .meta({ description: "Subscriptions that could not become plans, with why." }),
    planIds: z.array(z.string()),
  })
  .meta({ id: "SubscriptionAdoption" });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/orgs/:idOrSlug/processor/subscriptions/adopt: make the connected account's active subscriptions recurring plans (OWNER)
  POST: withRoute(
    {
      ...ORG_ROUTE,
      role: "OWNER",
      body: adoptBody,
      doc: {
        operationId: "adoptProcessorSubscriptions",
        summary: "Adopt the connected account's subscriptions",
        description:
          "Lists the active subscriptions of the organization's connected account (every page) and makes each one no plan " +
          "knows yet a recurring plan, with its donor (matched by email or created), in the campaign given. Donors keep " +
          "their cards: their renewals then arrive through `invoice.payment_succeeded` like any plan's. Adopting again " +
          "creates nothing for subscriptions already adopted. In sandbox mode, the sandbox's own subscriptions are listed.",
        tag: "Processor",
        success: 200,
        response: adoptionResult,
        responseDescription: "What was adopted",
        notFound: "Organization not found",
        conflicts: ["Connect the payout account before adopting its subscriptions"],
      },
    },
    async (ctx) => ok(await adoptSubscriptions(ctx.db, await getProcessor(), ctx.scope.org, ctx.body, auditContextOf(ctx))),
  ),
});
