import { csvBody, csvFormat } from "@/lib/api/openapi";
import { ORG_ADMIN_ROUTE } from "@/lib/api/org-route";
import { methods, withRoute } from "@/lib/api/route";
import { exportDonationsQuery } from "@/lib/schemas/donations";
import { csvResponse, exportFilename } from "@/lib/services/exports/csv";
import { exportDonationsCsv } from "@/lib/services/exports/export-donations";

const COLUMNS =
  "id, createdAt, succeededAt, status, amount, amountCents, currency, fee, feeCents, matchedAmount, matchedAmountCents, " +
  "email, firstName, lastName, anonymous, campaignId, campaignTitle, donorId, recurringInterval, recurringPlanId, " +
  "isRenewal, tickets, coverFees, message, dedicationType, dedicationHonoreeName, dedicationNotifyEmail, " +
  "dedicationMessage, paymentIntentId, failureReason, disputeReason, updatedAt, source, method, reference, receiptNumber";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/orgs/:idOrSlug/donations/export: the list's donations as a streamed CSV file (ADMIN: a bulk copy of donor data)
  GET: withRoute(
    {
      ...ORG_ADMIN_ROUTE,
      overload: "reports",
      query: exportDonationsQuery,
      doc: {
        operationId: "exportDonations",
        summary: "Export donations as CSV",
        description: `The donations the list would answer for the same filters, in the same order, as a CSV file (\`donations-<org-slug>-<YYYY-MM-DD>.csv\`). ${csvFormat("amount", "amountCents")}`,
        tag: "Donations",
        success: 200,
        response: csvBody(COLUMNS),
        responseMediaType: "text/csv",
        responseDescription: "The CSV file",
        notFound: "Organization not found",
      },
    },
    async ({ db, scope, query }) =>
      csvResponse(await exportDonationsCsv(db, scope.org, query), exportFilename("donations", scope.org.slug)),
  ),
});
