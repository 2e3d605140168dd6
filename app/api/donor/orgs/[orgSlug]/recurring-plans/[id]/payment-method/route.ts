import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { idParam } from "@/lib/schemas/common";
import { donorOrgParam } from "@/lib/schemas/donor-account";
import { planPaymentMethodSetupSchema } from "@/lib/schemas/recurring-plans";
import { getDonorPlanOrThrow } from "@/lib/services/recurring-plans/donor-plans";
import { startPaymentMethodChange } from "@/lib/services/recurring-plans/start-payment-method-change";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donor/orgs/:orgSlug/recurring-plans/:id/payment-method: start replacing the plan's card (donor)
  POST: withRoute(
    {
      auth: "donor",
      params: donorOrgParam.extend(idParam.shape),
      doc: {
        operationId: "startDonorRecurringPlanCardChange",
        summary: "Start replacing the card of one of the donor's own recurring plans",
        description:
          "Answers what the card form needs: in Stripe mode a SetupIntent's client secret for the Payment Element " +
          "(`confirmSetup`), with the publishable key; in sandbox mode the client secret of the sandbox card form " +
          "(`POST /api/sandbox/setup-intents/confirm`). Nothing changes until the card is confirmed: the processor's " +
          "`setup_intent.succeeded` then makes it the subscription's default card for the next charges. Another donor's " +
          "plan answers 404.",
        tag: "Donor account",
        success: 200,
        response: planPaymentMethodSetupSchema,
        responseDescription: "The card form's SetupIntent",
        notFound: "Recurring plan not found",
        conflicts: ["Recurring plan is canceled", "Recurring plan has not started: its first payment was never completed"],
      },
    },
    async ({ db, donor, org, params }) => {
      const plan = await getDonorPlanOrThrow(db, org.id, donor.id, params.id);
      return ok(await startPaymentMethodChange(await getProcessor(), plan));
    },
  ),
});
