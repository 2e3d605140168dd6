import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { assertSandboxMode, sandboxConfirmBody } from "@/lib/api/sandbox";
import { serializeDonation } from "@/lib/schemas/donations";
import { confirmSandboxPayment } from "@/lib/services/processor/sandbox-checkout";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/sandbox/payments/confirm: the sandbox card form; the outcome arrives through the webhook path (public, sandbox only)
  POST: withRoute({ auth: "public", body: sandboxConfirmBody }, async ({ db, body }) => {
    assertSandboxMode();
    return ok(serializeDonation(await confirmSandboxPayment(db, body)));
  }),
});
