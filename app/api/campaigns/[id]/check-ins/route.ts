import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { campaignScope } from "@/lib/api/scopes";
import { idParam } from "@/lib/schemas/common";
import { checkInBody, checkInResponse, serializeTicket } from "@/lib/schemas/tickets";
import { checkInTicket } from "@/lib/services/events/tickets";

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/campaigns/:id/check-ins { code }: admit a ticket at the door (members)
  POST: withRoute(
    {
      params: idParam,
      scope: campaignScope,
      body: checkInBody,
      doc: {
        operationId: "checkInTicket",
        summary: "Check a ticket in at the door",
        description:
          "Admits the ticket with this code once: of any number of concurrent check-ins of one code exactly one answers 200. Again: 409 `already_checked_in` (the message gives the time); a void ticket (refunded, voided, disputed): 409 `ticket_not_valid`; a code of another event: 404.",
        tag: "Campaigns",
        success: 200,
        response: checkInResponse,
        responseDescription: "The ticket, checked in",
        notFound: "Ticket not found",
        conflicts: ["Already checked in at <time>", "Not valid: <reason>"],
      },
    },
    async ({ db, scope, body, user, actor }) => {
      const ticket = await checkInTicket(db, scope.campaign.id, body.code, user?.id ?? actor?.id ?? "unknown");
      return ok({ ticket: serializeTicket(ticket) });
    },
  ),
});
