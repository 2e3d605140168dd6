import { z } from "zod";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { sandboxSubscriptionScope } from "@/lib/api/sandbox";
import { idParam } from "@/lib/schemas/common";
import { renewSandboxSubscription } from "@/lib/services/processor/sandbox-renewals";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/sandbox/subscriptions/:id/renew: bill the next cycle of a sandbox subscription now, or retry its unpaid invoice (ADMIN, sandbox only)
  POST: withRoute(
    {
      params: idParam,
      scope: sandboxSubscriptionScope,
      role: "ADMIN",
      doc: {
        operationId: "renewSandboxSubscription",
        summary: "Bill a sandbox subscription's next cycle now",
        description:
          "Sandbox mode only: Stripe's next billing attempt. An invoice the card failed to pay is attempted again; otherwise the next " +
          "cycle is billed. `outcome` says what the processor reported: `paid` (`invoice.payment_succeeded`), `failed` " +
          "(`invoice.payment_failed`, after `POST …/fail-next-renewal`) or `canceled` (the fourth failed attempt, then " +
          "`customer.subscription.deleted`).",
        tag: "Sandbox",
        success: 202,
        response: z.object({ renewed: z.literal(true), outcome: z.enum(["paid", "failed", "canceled"]) }).meta({ id: "SandboxRenewal" }),
        responseDescription: "The renewal attempt's events were sent",
        notFound: "Subscription not found",
        conflicts: ["The subscription's first payment has not succeeded"],
      },
    },
    async ({ db, scope }) => {
      const outcome = await renewSandboxSubscription(db, scope.subscriptionId);
      return json({ renewed: true, outcome }, { status: 202 });
    },
  ),
});
