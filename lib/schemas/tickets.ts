import { z } from "zod";
import { iso } from "./common";

export const ticketSchema = z
  .object({
    id: z.string(),
    code: z.string().meta({ description: "What the ticket's QR code carries: unguessable, 24 characters (base32)." }),
    tierId: z.string(),
    tierName: z.string(),
    attendeeName: z.string(),
    attendeeEmail: z.string().nullable(),
    buyerName: z.string(),
    donationId: z.string(),
    status: z.enum(["VALID", "VOID"]),
    voidReason: z
      .enum(["refunded", "voided", "disputed", "failed"])
      .nullable()
      .meta({ description: "Why a VOID ticket is void; null for a valid one." }),
    checkedInAt: z.string().nullable(),
  })
  .meta({ id: "Ticket" });

export const tierCountSchema = z.object({
  tierId: z.string(),
  tierName: z.string(),
  sold: z.number().int().meta({ description: "Valid tickets of the tier." }),
  checkedIn: z.number().int(),
});

export const ticketListSchema = z
  .object({
    data: z.array(ticketSchema),
    counts: z
      .array(tierCountSchema)
      .meta({ description: "Per tier: valid tickets and how many are checked in (for the door's live counts)." }),
  })
  .meta({ id: "TicketList" });

export const ticketListQuery = z.object({
  q: z.string().trim().max(200).optional().meta({ description: "Attendee or buyer name or email, or a ticket code." }),
  countsOnly: z
    .enum(["true", "false"])
    .optional()
    .meta({ description: "`true`: only the per-tier counts (`data` is empty), for a check-in desk polling them." }),
});

export const checkInBody = z.object({ code: z.string().trim().min(1).max(200) }).meta({ id: "CheckIn" });
export const checkInResponse = z.object({ ticket: ticketSchema }).meta({ id: "CheckInResult" });

export type TicketView = z.output<typeof ticketSchema>;

export function serializeTicket(t: {
  id: string;
  code: string;
  tierId: string;
  tierName: string;
  attendeeName: string;
  attendeeEmail: string | null;
  buyerName: string;
  donationId: string;
  status: "VALID" | "VOID";
  voidReason: TicketView["voidReason"];
  checkedInAt: Date | null;
}): TicketView {
  return {
    id: t.id,
    code: t.code,
    tierId: t.tierId,
    tierName: t.tierName,
    attendeeName: t.attendeeName,
    attendeeEmail: t.attendeeEmail,
    buyerName: t.buyerName,
    donationId: t.donationId,
    status: t.status,
    voidReason: t.voidReason,
    checkedInAt: iso(t.checkedInAt),
  };
}
