import { and, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { campaigns, donations, organizations } from "@/db/schema";
import { renderTicketsPdf } from "@/lib/services/events/ticket-pdf";
import { ticketsOfDonation } from "@/lib/services/events/tickets";

/**
 * The order's ticket PDF, linked from the thank-you page: like that page, found by the donation's
 * (unguessable) ID *and* its campaign, and only for a paid order; anything else is a 404.
 */
export async function GET(req: Request, { params }: { params: Promise<{ orgSlug: string; slug: string }> }) {
  const { orgSlug, slug } = await params;
  const id = new URL(req.url).searchParams.get("donation") ?? "";
  const notFound = () => new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } });
  if (!/^[\w-]{1,100}$/.test(id)) return notFound();
  const db = await getDb();
  const [row] = await db
    .select({ status: donations.status, title: campaigns.title, startDate: campaigns.startDate, orgName: organizations.name })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .innerJoin(organizations, eq(organizations.id, donations.orgId))
    .where(and(eq(donations.id, id), eq(campaigns.slug, slug), eq(organizations.slug, orgSlug)))
    .limit(1);
  if (!row || row.status !== "SUCCEEDED") return notFound();
  const tickets = await ticketsOfDonation(db, id);
  if (tickets.length === 0) return notFound();
  const pdf = await renderTicketsPdf({ orgName: row.orgName, eventTitle: row.title, eventDate: row.startDate, tickets });
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename="tickets-${slug}.pdf"`,
      "cache-control": "private, no-store",
      "x-robots-tag": "noindex",
    },
  });
}
