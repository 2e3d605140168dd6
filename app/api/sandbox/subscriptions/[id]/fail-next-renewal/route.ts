import { z } from "zod";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { sandboxSubscriptionScope } from "@/lib/api/sandbox";
import { idParam } from "@/lib/schemas/common";
import { failNextSandboxRenewal } from "@/lib/services/processor/sandbox-renewals";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/sandbox/subscriptions/:id/fail-next-renewal: the subscription's card declines from its next renewal on (ADMIN, sandbox only)
  POST: withRoute(
    {
      params: idParam,
      scope: sandboxSubscriptionScope,
      role: "ADMIN",
      doc: {
        operationId: "failNextSandboxRenewal",
        summary: "Make a sandbox subscription's card decline",
        description:
          "Sandbox mode only, to try failed renewals without Stripe: from now on `POST …/renew` reports declined payments " +
          "(`invoice.payment_failed`, the plan PAST_DUE) until the donor saves a new card from their account page.",
        tag: "Sandbox",
        success: 200,
        response: z.object({ declines: z.literal(true) }).meta({ id: "SandboxCardDeclines" }),
        responseDescription: "The card now declines",
        notFound: "Subscription not found",
        conflicts: ["The subscription's first payment has not succeeded"],
      },
    },
    async ({ db, scope }) => {
      await failNextSandboxRenewal(db, scope.subscriptionId);
      return json({ declines: true });
    },
  ),
});
