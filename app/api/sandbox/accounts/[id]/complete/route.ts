import { z } from "zod";
import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { sandboxAccountScope } from "@/lib/api/sandbox";
import { idParam } from "@/lib/schemas/common";
import { completeSandboxOnboarding } from "@/lib/services/processor/sandbox-checkout";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/sandbox/accounts/:id/complete: finish the sandbox's payout-account onboarding (OWNER, sandbox only)
  POST: withRoute(
    {
      params: idParam,
      scope: sandboxAccountScope,
      role: "OWNER",
      doc: {
        operationId: "completeSandboxOnboarding",
        summary: "Finish the sandbox's payout-account onboarding",
        tag: "Sandbox",
        success: 202,
        response: z.object({ completed: z.literal(true) }),
        responseDescription: "The account now charges and pays out",
        notFound: "Account not found",
      },
    },
    async ({ db, scope }) => {
      await completeSandboxOnboarding(db, scope.accountId);
      return json({ completed: true }, { status: 202 });
    },
  ),
});
