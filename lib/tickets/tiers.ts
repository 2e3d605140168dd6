import type { Campaign, TicketTier } from "@/db/schema";

/** The id of the single tier of a campaign created the old way (`ticketPriceCents` × `ticketCapacity`). */
export const SINGLE_TIER_ID = "general";
export const MAX_TICKET_TIERS = 20;

/**
 * The campaign's tiers: its own, or for a campaign created the old way one tier made of its
 * `ticketPriceCents`, `ticketCapacity` and `ticketsSold` (no fair market value). Not an EVENT: none.
 */
export function tiersOf(c: Pick<Campaign, "type" | "ticketTiers" | "ticketPriceCents" | "ticketCapacity" | "ticketsSold">): TicketTier[] {
  if (c.type !== "EVENT") return [];
  if (c.ticketTiers && c.ticketTiers.length > 0) return c.ticketTiers;
  if (c.ticketPriceCents == null || c.ticketCapacity == null) return [];
  return [
    {
      id: SINGLE_TIER_ID,
      name: "General admission",
      priceCents: c.ticketPriceCents,
      capacity: c.ticketCapacity,
      sold: c.ticketsSold,
      fairMarketValueCents: 0,
      description: null,
    },
  ];
}
