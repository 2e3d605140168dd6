import { getRecurringReport } from "@/db/queries/recurring-report";
import { reportRoute } from "@/lib/api/reports";
import { methods } from "@/lib/api/route";
import { recurringReportSchema, reportWindowQuery } from "@/lib/schemas/reports";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/reports/recurring: recurring revenue kept and lost, upsell and reminder conversion (members)
  GET: reportRoute(
    {
      query: reportWindowQuery,
      doc: {
        operationId: "getRecurringReport",
        summary: "Recurring revenue: plans, recoveries, losses, upsell and reminders",
        description:
          "Plans active and past due now and their monthly recurring revenue (not windowed); for the `from` (inclusive) to " +
          "`to` (exclusive) window: renewals recovered after a declined payment and invoices lost when the processor gave " +
          "up, monthly upsells offered and accepted, unfinished-gift reminders sent and the gifts completed after them.",
        response: recurringReportSchema,
        responseDescription: "The window as understood and its numbers",
      },
    },
    ({ db, orgId, window }) => getRecurringReport(db, orgId, window),
  ),
});
