import { csvResponse } from "@/lib/api/respond";
import { csvBody } from "@/lib/api/openapi";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { exportFilename } from "@/lib/services/exports/csv";
import { ATTENDEE_CSV_COLUMNS, exportAttendeesCsv } from "@/lib/services/events/attendees-csv";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/campaigns/:id/tickets/export: the event's attendees as CSV (members)
  GET: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      doc: {
        operationId: "exportCampaignAttendees",
        summary: "Export an event's attendees as CSV",
        tag: "Campaigns",
        success: 200,
        response: csvBody(ATTENDEE_CSV_COLUMNS.join(", ")),
        responseMediaType: "text/csv",
        responseDescription: "The CSV file",
        notFound: "Campaign not found",
      },
    },
    async ({ db, scope }) => {
      const { csv, orgSlug } = await exportAttendeesCsv(db, scope.campaign);
      return csvResponse(csv, exportFilename(`attendees-${scope.campaign.slug}`, orgSlug));
    },
  ),
});
