import { conflict } from "@/lib/errors";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { getProcessor } from "@/lib/services/processor/get-processor";
import { reconcileRunSchema, serializeReconcileRun } from "@/lib/schemas/reconcile";
import { reconcileWithProcessor } from "@/lib/services/processor/reconcile";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/cron/reconcile: reconcile with the payment processor now (Authorization: Bearer CRON_SECRET)
  POST: withRoute(
    {
      auth: "cron",
      doc: {
        operationId: "reconcileWithProcessor",
        summary: "Reconcile with the payment processor now",
        description:
          "Lists the processor's events since the last completed run (less a 10-minute overlap; a first run looks back " +
          "3 days) and applies any that never arrived, through the same path as the webhook, then settles one-time " +
          "payments still PENDING after RECONCILE_PENDING_AFTER_MINUTES from their PaymentIntent. Every repair is " +
          "listed in the answer and kept with the run. The worker does the same every RECONCILE_EVERY_MINUTES. " +
          "Answers 404 when CRON_SECRET is not set.",
        tag: "Jobs",
        success: 200,
        response: reconcileRunSchema,
        responseDescription: "The run: its window, counts and repairs",
        conflicts: ["A reconciliation run is already in progress"],
      },
    },
    async ({ db }) => {
      const outcome = await reconcileWithProcessor(db, await getProcessor(), { trigger: "manual" });
      if (!outcome.started) throw conflict("conflict", "A reconciliation run is already in progress");
      return ok(serializeReconcileRun(outcome.run));
    },
  ),
});
