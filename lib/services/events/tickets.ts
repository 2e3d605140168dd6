import { randomBytes } from "node:crypto";
import { and, asc, eq, ilike, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db";
import { donations, tickets, type Donation, type DonationStatus, type Ticket } from "@/db/schema";
import { AppError, conflict } from "@/lib/errors";
import { newId } from "@/lib/ids";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** An unguessable ticket code: 15 random bytes (120 bits) in base32, 24 characters. */
export function newTicketCode(): string {
  const bytes = randomBytes(15);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/**
 * The tickets of a donation that just succeeded: one per seat of its order, named after the
 * attendee given for it (else the buyer). A seat that already has its ticket (a dispute won back)
 * keeps it, valid again.
 */
export async function issueTickets(tx: Tx, d: Donation): Promise<void> {
  if (!d.ticketOrder || d.ticketOrder.length === 0) return;
  const buyer = [d.firstName, d.lastName].filter(Boolean).join(" ") || d.email || "Guest";
  const rows: (typeof tickets.$inferInsert)[] = [];
  let seat = 0;
  for (const line of d.ticketOrder) {
    for (let i = 0; i < line.quantity; i++) {
      const attendee = line.attendees[i];
      rows.push({
        id: newId("tkt"),
        code: newTicketCode(),
        orgId: d.orgId,
        campaignId: d.campaignId,
        donationId: d.id,
        tierId: line.tierId,
        tierName: line.tierName,
        seat: seat++,
        attendeeName: attendee?.name || buyer,
        attendeeEmail: attendee?.email ?? null,
      });
    }
  }
  await tx
    .insert(tickets)
    .values(rows)
    .onConflictDoUpdate({ target: [tickets.donationId, tickets.seat], set: { status: "VALID", voidReason: null } });
}

/** Why a donation that stops holding its seats voids its tickets. */
export function voidReasonFor(from: DonationStatus, to: DonationStatus): NonNullable<Ticket["voidReason"]> {
  if (to === "VOIDED") return "voided";
  if (from === "DISPUTED") return "disputed";
  if (to === "REFUNDED") return "refunded";
  return "failed";
}

/** A refund, a void or a lost dispute: the donation's tickets can no longer be used (same transaction). */
export async function voidTickets(tx: Tx, donationId: string, reason: NonNullable<Ticket["voidReason"]>): Promise<void> {
  await tx
    .update(tickets)
    .set({ status: "VOID", voidReason: reason })
    .where(and(eq(tickets.donationId, donationId), eq(tickets.status, "VALID")));
}

export type TicketWithBuyer = Ticket & { buyerName: string; buyerEmail: string | null };

const withBuyer = {
  ticket: tickets,
  buyerFirstName: donations.firstName,
  buyerLastName: donations.lastName,
  buyerEmail: donations.email,
};

const toTicketWithBuyer = (r: {
  ticket: Ticket;
  buyerFirstName: string | null;
  buyerLastName: string | null;
  buyerEmail: string | null;
}) => ({
  ...r.ticket,
  buyerName: [r.buyerFirstName, r.buyerLastName].filter(Boolean).join(" "),
  buyerEmail: r.buyerEmail,
});

/** A campaign's tickets, by attendee name; `q` matches the attendee's or the buyer's name or email, or the code. */
export async function listTickets(db: DbOrTx, campaignId: string, q?: string | null): Promise<TicketWithBuyer[]> {
  const like = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await db
    .select(withBuyer)
    .from(tickets)
    .innerJoin(donations, eq(donations.id, tickets.donationId))
    .where(
      and(
        eq(tickets.campaignId, campaignId),
        like
          ? or(
              ilike(tickets.attendeeName, like),
              ilike(tickets.attendeeEmail, like),
              ilike(sql`coalesce(${donations.firstName}, '') || ' ' || coalesce(${donations.lastName}, '')`, like),
              ilike(donations.email, like),
              eq(tickets.code, q!.trim().toUpperCase()),
            )
          : undefined,
      ),
    )
    .orderBy(asc(tickets.attendeeName), asc(tickets.id))
    .limit(like ? 100 : 100_000);
  return rows.map(toTicketWithBuyer);
}

/** A donation's tickets in seat order (the thank-you page, the receipt email, the ticket PDF). */
export async function ticketsOfDonation(db: DbOrTx, donationId: string): Promise<Ticket[]> {
  return db.select().from(tickets).where(eq(tickets.donationId, donationId)).orderBy(asc(tickets.seat));
}

export type TierCount = { tierId: string; tierName: string; valid: number; checkedIn: number };

/** Per tier: valid tickets and how many of them are checked in (the check-in desk's live counts). */
export async function checkInCounts(db: DbOrTx, campaignId: string): Promise<TierCount[]> {
  const rows = await db
    .select({
      tierId: tickets.tierId,
      tierName: sql<string>`min(${tickets.tierName})`,
      valid: sql<number>`count(*) filter (where ${tickets.status} = 'VALID')::int`,
      checkedIn: sql<number>`count(*) filter (where ${tickets.status} = 'VALID' and ${tickets.checkedInAt} is not null)::int`,
    })
    .from(tickets)
    .where(eq(tickets.campaignId, campaignId))
    .groupBy(tickets.tierId);
  return rows.map((r) => ({ ...r, valid: Number(r.valid), checkedIn: Number(r.checkedIn) }));
}

/**
 * Admits a ticket at the door. One conditional UPDATE sets `checkedInAt` only on a VALID ticket
 * of this campaign not yet checked in, so of any number of scans of one code exactly one wins.
 * Otherwise: unknown here (another campaign's code too) 404; void 409 `ticket_not_valid`; already
 * checked in 409 `already_checked_in` with the time.
 */
export async function checkInTicket(db: DbOrTx, campaignId: string, code: string, userId: string): Promise<TicketWithBuyer> {
  const normalized = code.trim().toUpperCase();
  const [admitted] = await db
    .update(tickets)
    .set({ checkedInAt: sql`now()`, checkedInBy: userId })
    .where(and(eq(tickets.campaignId, campaignId), eq(tickets.code, normalized), eq(tickets.status, "VALID"), isNull(tickets.checkedInAt)))
    .returning({ id: tickets.id });
  const [row] = await db
    .select(withBuyer)
    .from(tickets)
    .innerJoin(donations, eq(donations.id, tickets.donationId))
    .where(and(eq(tickets.campaignId, campaignId), eq(tickets.code, normalized)))
    .limit(1);
  if (!row) throw new AppError("ticket_not_found", "Ticket not found");
  if (admitted) return toTicketWithBuyer(row);
  if (row.ticket.status !== "VALID") throw conflict("ticket_not_valid", `Not valid: ${row.ticket.voidReason ?? "void"}`);
  throw conflict("already_checked_in", `Already checked in at ${row.ticket.checkedInAt!.toISOString()}`);
}
