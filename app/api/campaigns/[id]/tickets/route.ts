import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { serializeTicket, ticketListQuery, ticketListSchema } from "@/lib/schemas/tickets";
import { checkInCounts, listTickets } from "@/lib/services/events/tickets";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // GET /api/campaigns/:id/tickets?q=: an event's tickets, with per-tier counts (members)
  GET: withRoute(
    {
      params: idParam,
      query: ticketListQuery,
      scope: campaignScope,
      doc: {
        operationId: "listCampaignTickets",
        summary: "List an event's tickets and its check-in counts",
        description:
          "Every ticket of the event's paid orders (one per seat), by attendee name; `q` searches attendee and buyer names and emails, or matches a code (at most 100 results then). `counts` gives valid and checked-in tickets per tier.",
        tag: "Campaigns",
        success: 200,
        response: ticketListSchema,
        responseDescription: "The tickets and the counts per tier",
        notFound: "Campaign not found",
      },
    },
    async ({ db, scope, query }) => {
      const [rows, counts] = await Promise.all([
        query.countsOnly === "true" ? [] : listTickets(db, scope.campaign.id, query.q || null),
        checkInCounts(db, scope.campaign.id),
      ]);
      return ok({
        data: rows.map(serializeTicket),
        counts: counts.map((c) => ({ tierId: c.tierId, tierName: c.tierName, sold: c.valid, checkedIn: c.checkedIn })),
      });
    },
  ),
});
