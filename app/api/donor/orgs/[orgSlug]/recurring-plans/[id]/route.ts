import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { idParam } from "@/lib/schemas/common";
import { donorOrgParam, donorRecurringPlanSchema, serializeDonorRecurringPlan } from "@/lib/schemas/donor-account";
import { changePlanAmountBody } from "@/lib/schemas/recurring-plans";
import { changePlanAmount } from "@/lib/services/recurring-plans/change-plan-amount";
import { getDonorPlanOrThrow } from "@/lib/services/recurring-plans/donor-plans";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // PATCH /api/donor/orgs/:orgSlug/recurring-plans/:id: change the gift per cycle from the next charge on (donor)
  PATCH: withRoute(
    {
      auth: "donor",
      params: donorOrgParam.extend(idParam.shape),
      body: changePlanAmountBody,
      doc: {
        operationId: "changeDonorRecurringPlanAmount",
        summary: "Change the amount of one of the donor's own recurring plans",
        description:
          "From the next charge on, the plan gives `amount` a cycle (plus the card fees, when the donor chose to cover " +
          "them with the first gift); nothing is charged or refunded now. The amount follows the campaign's rules, as a " +
          "new gift would (`amount_below_minimum`, `not_a_suggested_amount`). Another donor's plan answers 404.",
        tag: "Donor account",
        success: 200,
        response: donorRecurringPlanSchema,
        responseDescription: "The plan with its new amount",
        notFound: "Recurring plan not found",
        conflicts: ["Recurring plan is canceled", "Recurring plan has not started: its first payment was never completed"],
        bodyExamples: { newAmount: { summary: "A new gift per cycle", value: { amount: 3500 } } },
      },
    },
    async ({ db, donor, org, params, body }) => {
      const plan = await getDonorPlanOrThrow(db, org.id, donor.id, params.id);
      return ok(serializeDonorRecurringPlan(await changePlanAmount(db, await getProcessor(), plan, body.amount)));
    },
  ),
});
