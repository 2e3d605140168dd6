import { auditContextOf } from "@/lib/api/audit";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { recurringPlanScope } from "@/lib/api/scopes";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { idParam } from "@/lib/schemas/common";
import { recurringPlanSchema, serializeRecurringPlan } from "@/lib/schemas/recurring-plans";
import { cancelRecurringPlan } from "@/lib/services/recurring-plans/cancel-recurring-plan";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/recurring-plans/:id/cancel: cancel the subscription now; the status follows the processor's event (ADMIN)
  POST: withRoute(
    {
      params: idParam,
      scope: recurringPlanScope,
      role: "ADMIN",
      doc: {
        operationId: "cancelRecurringPlan",
        summary: "Cancel a recurring plan",
        description:
          "Cancels the plan's subscription at the processor, now: no further renewals. The plan becomes CANCELED when " +
          "the processor reports it (`customer.subscription.deleted`; at once in sandbox mode), so the answer is the " +
          "plan as it then stands.",
        tag: "Recurring plans",
        success: 200,
        response: recurringPlanSchema,
        responseDescription: "The plan after the cancellation request",
        notFound: "Recurring plan not found",
        conflicts: ["Recurring plan is already canceled", "Recurring plan has no subscription to cancel"],
      },
    },
    async (ctx) => ok(serializeRecurringPlan(await cancelRecurringPlan(ctx.db, await getProcessor(), ctx.scope.plan, auditContextOf(ctx)))),
  ),
});
