import { json } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { sandboxAccountScope } from "@/lib/api/sandbox";
import { idParam } from "@/lib/schemas/common";
import { completeSandboxOnboarding } from "@/lib/services/processor/sandbox-checkout";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/sandbox/accounts/:id/complete: finish the sandbox's payout-account onboarding (OWNER, sandbox only)
  POST: withRoute({ params: idParam, scope: sandboxAccountScope, role: "OWNER" }, async ({ db, scope }) => {
    await completeSandboxOnboarding(db, scope.accountId);
    return json({ completed: true }, { status: 202 });
  }),
});
