import { sql } from "drizzle-orm";
import { index, integer, pgEnum, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamptz } from "./columns";
import { campaigns } from "./campaigns";
import { donations } from "./donations";
import { organizations } from "./organizations";

export const ticketStatusEnum = pgEnum("ticket_status", ["VALID", "VOID"]);
export type TicketStatus = (typeof ticketStatusEnum.enumValues)[number];

/**
 * One seat of a paid event order, made when its donation first succeeds. `code` is what its QR
 * code carries: unguessable (base32 of 15 random bytes), unique. A refund, a void or a lost
 * dispute voids the donation's tickets in the same transaction (`voidReason` says which).
 * `checkedInAt` is set once, by one conditional UPDATE, so a ticket is never admitted twice.
 */
export const tickets = pgTable(
  "tickets",
  {
    id: text().primaryKey(),
    code: text().notNull(),
    orgId: belongsTo(() => organizations.id),
    campaignId: belongsTo(() => campaigns.id),
    donationId: belongsTo(() => donations.id),
    tierId: text().notNull(),
    tierName: text().notNull(),
    /** Position of the seat in its order (0-based), so a retry never makes a second ticket for it. */
    seat: integer().notNull(),
    attendeeName: text().notNull(),
    attendeeEmail: text(),
    status: ticketStatusEnum().notNull().default("VALID"),
    voidReason: text().$type<"refunded" | "voided" | "disputed" | "failed">(),
    checkedInAt: timestamptz(),
    checkedInBy: text(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("tickets_code_key").on(t.code),
    uniqueIndex("tickets_donation_seat_key").on(t.donationId, t.seat),
    index("tickets_campaign_idx").on(t.campaignId, t.attendeeName),
    index("tickets_campaign_checked_idx")
      .on(t.campaignId, t.tierId)
      .where(sql`${t.checkedInAt} is not null`),
  ],
);

export type Ticket = typeof tickets.$inferSelect;
