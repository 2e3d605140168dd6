import { z } from "zod";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { sandboxSubscriptionScope } from "@/lib/api/sandbox";
import { idParam } from "@/lib/schemas/common";
import { renewSandboxSubscription } from "@/lib/services/processor/sandbox-checkout";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/sandbox/subscriptions/:id/renew: bill the next cycle of a sandbox subscription now (ADMIN, sandbox only)
  POST: withRoute(
    {
      params: idParam,
      scope: sandboxSubscriptionScope,
      role: "ADMIN",
      doc: {
        operationId: "renewSandboxSubscription",
        summary: "Bill a sandbox subscription's next cycle now",
        tag: "Sandbox",
        success: 202,
        response: z.object({ renewed: z.literal(true) }),
        responseDescription: "The renewal invoice was sent",
        notFound: "Subscription not found",
        conflicts: ["The subscription's first payment has not succeeded"],
      },
    },
    async ({ db, scope }) => {
      await renewSandboxSubscription(db, scope.subscriptionId);
      return json({ renewed: true }, { status: 202 });
    },
  ),
});
