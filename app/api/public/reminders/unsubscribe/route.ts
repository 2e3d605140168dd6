import { z } from "zod";
import { ok } from "@/lib/api/respond";
import { methods, withRoute } from "@/lib/api/route";
import { optOutOfReminders } from "@/lib/services/recurring/reminder-opt-out";

const unsubscribeBody = z.object({ token: z.string().min(1).max(1000) }).meta({ id: "UnsubscribeReminders" });

export const { GET, POST, PUT, PATCH, DELETE } = methods({
  // POST /api/public/reminders/unsubscribe: stop an address's unfinished-gift reminders from one organization (public)
  POST: withRoute(
    {
      auth: "public",
      body: unsubscribeBody,
      doc: {
        operationId: "unsubscribeFromReminders",
        summary: "Stop unfinished-gift reminders",
        description:
          "The `token` of the unsubscribe link in an unfinished-gift reminder: that address gets no more such reminders from " +
          "that organization (asking again changes nothing). A token the server did not issue is a 404. Receipts and other " +
          "emails about gifts made are not affected.",
        tag: "Donations",
        success: 200,
        response: z.object({ unsubscribed: z.literal(true) }).meta({ id: "UnsubscribedReminders" }),
        responseDescription: "No more reminders to that address from that organization",
        notFound: "This unsubscribe link is not valid",
      },
    },
    async ({ db, body }) => ok(await optOutOfReminders(db, body.token)),
  ),
});
