import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { recurringPlanScope } from "@/lib/api/scopes";
import { getProcessor } from "@/lib/processor";
import { idParam } from "@/lib/schemas/common";
import { serializeRecurringPlan } from "@/lib/schemas/recurring-plans";
import { cancelRecurringPlan } from "@/lib/services/recurring-plans/cancel-recurring-plan";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/recurring-plans/:id/cancel: cancel the subscription now; the status follows the processor's event (ADMIN)
  POST: withRoute({ params: idParam, scope: recurringPlanScope, role: "ADMIN" }, async ({ db, scope }) =>
    ok(serializeRecurringPlan(await cancelRecurringPlan(db, await getProcessor(), scope.plan))),
  ),
});
