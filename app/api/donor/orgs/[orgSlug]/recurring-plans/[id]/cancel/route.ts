import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { donorOrgParam, donorRecurringPlanSchema, serializeDonorRecurringPlan } from "@/lib/schemas/donor-account";
import { idParam } from "@/lib/schemas/common";
import { cancelPlanAsDonor, getDonorPlanOrThrow } from "@/lib/services/recurring-plans/donor-plans";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/donor/orgs/:orgSlug/recurring-plans/:id/cancel: the donor cancels their own plan now (donor)
  POST: withRoute(
    {
      auth: "donor",
      params: donorOrgParam.extend(idParam.shape),
      doc: {
        operationId: "cancelDonorRecurringPlan",
        summary: "Cancel one of the donor's own recurring plans",
        description:
          "Cancels the plan's subscription at the processor, now: no further charges. The plan becomes CANCELED when the " +
          'processor reports it (at once in sandbox mode), with `canceledBy: "donor"`; then `recurring_plan.canceled` is ' +
          "sent to the organization's webhooks, the donor gets a confirmation email and the organization a note. Another " +
          "donor's plan answers 404.",
        tag: "Donor account",
        success: 200,
        response: donorRecurringPlanSchema,
        responseDescription: "The plan after the cancellation request",
        notFound: "Recurring plan not found",
        conflicts: ["Recurring plan is already canceled", "Recurring plan has no subscription to cancel"],
      },
    },
    async ({ db, donor, org, params, requestId, clientIp }) => {
      const plan = await getDonorPlanOrThrow(db, org.id, donor.id, params.id);
      const after = await cancelPlanAsDonor(db, await getProcessor(), plan, donor, { requestId, clientIp });
      return ok(serializeDonorRecurringPlan(after));
    },
  ),
});
