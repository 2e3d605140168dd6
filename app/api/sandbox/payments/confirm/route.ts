import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { assertSandboxMode, sandboxConfirmBody } from "@/lib/api/sandbox";
import { donationSchema, serializeDonation } from "@/lib/schemas/donations";
import { confirmSandboxPayment } from "@/lib/services/processor/sandbox-checkout";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/sandbox/payments/confirm: the sandbox card form; the outcome arrives through the webhook path (public, sandbox only)
  POST: withRoute(
    {
      auth: "public",
      overload: "priority",
      body: sandboxConfirmBody,
      doc: {
        operationId: "confirmSandboxPayment",
        summary: "Pay with the sandbox card form",
        description:
          "Sandbox mode only. Card 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined; the outcome is sent as " +
          "signed processor events to the webhook endpoint, and the donation as it then stands is answered. The whole " +
          "client secret must match; a payment canceled because its ticket hold expired can't be confirmed (409). A " +
          "declined card answers the donation FAILED, or, when it holds event tickets, still PENDING with `failureReason` " +
          "set: its tickets stay held and the same payment may be retried with another card until the hold expires.",
        tag: "Sandbox",
        success: 200,
        response: donationSchema,
        responseDescription: "The donation after the sandbox's events were applied",
        notFound: "Payment not found",
        conflicts: ["This payment is already complete", "This payment was canceled; please start a new donation", "Sold out"],
      },
    },
    async ({ db, body }) => {
      assertSandboxMode();
      return ok(serializeDonation(await confirmSandboxPayment(db, body)));
    },
  ),
});
