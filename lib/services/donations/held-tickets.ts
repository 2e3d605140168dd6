import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donations, type Campaign } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

/** The refusal's message; the donate page words it for the donor from this text. */
export const TOO_MANY_HELD_TICKETS = "Too many unpaid tickets held for this event, try again later";

/** Seats one client may hold unpaid at once for a campaign, in multiples of its per-order limit. */
export const HELD_ORDERS_PER_CLIENT = 2;

/**
 * One client (by its rate-limit key) may hold at most `maxTicketsPerOrder` × 2 of a campaign's
 * seats in unpaid (PENDING) orders at once: more is 429 `too_many_held_tickets`, with
 * `Retry-After` until its oldest hold expires. Without it, one script could keep any event sold
 * out by renewing its holds every TICKET_HOLD_MINUTES.
 *
 * Call it in the order's transaction after its seats were reserved: that conditional UPDATE holds
 * the campaign row's lock until commit, so orders for one campaign take turns here and each sees
 * every hold committed before it (read committed: a new snapshot per statement). Concurrent
 * requests can't both slip under the cap. A client without a known address (null) is not capped,
 * like the card-testing defence: the server refuses to start where clients can't be told apart.
 */
export async function assertHeldTicketsWithinCap(
  tx: DbOrTx,
  order: { campaign: Pick<Campaign, "id" | "maxTicketsPerOrder">; clientIp: string | null; tickets: number },
): Promise<void> {
  if (!order.clientIp) return;
  const cap = order.campaign.maxTicketsPerOrder * HELD_ORDERS_PER_CLIENT;
  const [held] = await tx
    .select({
      tickets: sql<number>`coalesce(sum(${donations.tickets}), 0)::int`,
      oldest: sql<string | null>`min(${donations.createdAt})::text`,
    })
    .from(donations)
    .where(
      and(
        eq(donations.campaignId, order.campaign.id),
        eq(donations.clientIp, order.clientIp),
        eq(donations.status, "PENDING"),
        isNotNull(donations.tickets),
      ),
    );
  if (Number(held.tickets) + order.tickets <= cap) return;
  const holdMs = getEnv().TICKET_HOLD_MINUTES * 60_000;
  const oldest = held.oldest ? new Date(held.oldest).getTime() : Date.now();
  const seconds = Math.max(1, Math.ceil((oldest + holdMs - Date.now()) / 1000));
  throw new AppError("too_many_held_tickets", TOO_MANY_HELD_TICKETS, undefined, { "Retry-After": String(seconds) });
}
