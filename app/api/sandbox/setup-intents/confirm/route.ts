import { z } from "zod";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { assertSandboxMode, sandboxConfirmBody } from "@/lib/api/sandbox";
import { confirmSandboxSetup } from "@/lib/services/processor/sandbox-setup";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/sandbox/setup-intents/confirm: the sandbox card form saving a recurring plan's new card (public, sandbox only)
  POST: withRoute(
    {
      auth: "public",
      body: sandboxConfirmBody,
      doc: {
        operationId: "confirmSandboxSetup",
        summary: "Save a card with the sandbox card form",
        description:
          "Sandbox mode only: Stripe's `confirmSetup` for the client secret of `POST …/recurring-plans/:id/payment-method`. " +
          "Card 4242 4242 4242 4242 is accepted and `setup_intent.succeeded` is sent through the webhook path, which makes " +
          "it the subscription's default card; 4000 0000 0000 0002 is declined (400 on `cardNumber`). The whole client " +
          "secret must match; a card form whose card was accepted can't be used again (409).",
        tag: "Sandbox",
        success: 200,
        response: z.object({ status: z.literal("succeeded"), paymentMethodId: z.string() }).meta({ id: "SandboxSetupResult" }),
        responseDescription: "The card was saved as the plan's card",
        notFound: "Card form not found",
        conflicts: ["This card was already saved"],
      },
    },
    async ({ db, body }) => {
      assertSandboxMode();
      return ok(await confirmSandboxSetup(db, body));
    },
  ),
});
