import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import type { z } from "zod";
import { campaigns, type TicketOrderLine, type TicketTier } from "@/db/schema";
import { Issues } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { ticketTierInput } from "@/lib/schemas/campaigns";

export { SINGLE_TIER_ID, MAX_TICKET_TIERS, tiersOf } from "@/lib/tickets/tiers";

const linesJson = (lines: Pick<TicketOrderLine, "tierId" | "quantity">[], sign: number) =>
  JSON.stringify(lines.map((l) => ({ tierId: l.tierId, quantity: l.quantity * sign })));

/** The tiers' array with each line's quantity added to its tier's `sold`. */
const movedTiers = (lines: string) => sql`case when ${campaigns.ticketTiers} is null then null else (
  select jsonb_agg(
    case when o.quantity is null then t.value
         else jsonb_set(t.value, '{sold}', to_jsonb((t.value->>'sold')::int + o.quantity)) end
    order by t.ordinality)
  from jsonb_array_elements(${campaigns.ticketTiers}) with ordinality as t(value, ordinality)
  left join jsonb_to_recordset(${lines}::jsonb) as o("tierId" text, quantity int) on o."tierId" = t.value->>'id'
) end`;

/** Some tier would hold more than its capacity after the lines are added. */
const overCapacity = (lines: string) => sql`exists (
  select 1
  from jsonb_array_elements(${campaigns.ticketTiers}) as t(value)
  join jsonb_to_recordset(${lines}::jsonb) as o("tierId" text, quantity int) on o."tierId" = t.value->>'id'
  where (t.value->>'sold')::int + o.quantity > (t.value->>'capacity')::int)`;

/**
 * Takes an order's seats from its tiers, only if every tier still has room. Call it in the
 * order's transaction after the campaign's row lock was taken (the campaign-wide reservation's
 * conditional UPDATE): orders for one campaign take turns here, and each reads the tiers as the
 * one before it left them. False: some tier is sold out (the caller rolls back). A campaign
 * without tiers of its own (the old single tier) has nothing more to check.
 */
export async function reserveTierSeats(tx: DbOrTx, campaignId: string, lines: TicketOrderLine[]): Promise<boolean> {
  const json = linesJson(lines, 1);
  const rows = await tx
    .update(campaigns)
    .set({ ticketTiers: movedTiers(json) })
    .where(and(eq(campaigns.id, campaignId), sql`not (${campaigns.ticketTiers} is not null and ${overCapacity(json)})`))
    .returning({ id: campaigns.id });
  return rows.length > 0;
}

/** Whether the tiers have room for the lines now (a FAILED order paid again takes its seats back). */
export async function tierSeatsFit(tx: DbOrTx, campaignId: string, lines: TicketOrderLine[]): Promise<boolean> {
  const [row] = await tx
    .select({ over: sql<boolean>`coalesce(${campaigns.ticketTiers} is not null and ${overCapacity(linesJson(lines, 1))}, false)` })
    .from(campaigns)
    .where(eq(campaigns.id, campaignId));
  return !row?.over;
}

/** Seats taken (`sign` 1) or given back (-1) as a donation starts or stops holding them; run under the campaign's row lock. */
export async function moveTierSeats(tx: DbOrTx, campaignId: string, lines: TicketOrderLine[], sign: number): Promise<void> {
  await tx
    .update(campaigns)
    .set({ ticketTiers: movedTiers(linesJson(lines, sign)) })
    .where(eq(campaigns.id, campaignId));
}

type TierInput = z.output<typeof ticketTierInput>;

/**
 * The tiers an editor sent, merged with the campaign's current ones: a tier named by `id` keeps
 * its sold seats (its capacity can't go below them), a tier without one is new, and a tier left
 * out is removed only when none of its seats are held. With them go the campaign's
 * `ticketCapacity` (their sum, which the campaign-wide reservation checks) and `ticketPriceCents`
 * (the lowest price). Each failure is a 400 on its field.
 */
export function mergeTiers(
  input: TierInput[],
  current: TicketTier[],
): { ticketTiers: TicketTier[]; ticketCapacity: number; ticketPriceCents: number } {
  const issues = new Issues();
  const kept = new Set<string>();
  const tiers = input.map((t, i): TicketTier => {
    const existing = t.id ? current.find((c) => c.id === t.id) : undefined;
    if (t.id && !existing) issues.add(`ticketTiers.${i}.id`, "No such ticket tier for this event", "unknown_tier");
    if (t.id && kept.has(t.id)) issues.add(`ticketTiers.${i}.id`, "Each tier at most once", "duplicate_tier");
    if (t.id) kept.add(t.id);
    const sold = existing?.sold ?? 0;
    if (t.capacity < sold)
      issues.add(`ticketTiers.${i}.capacity`, `Cannot be below the ${sold} tickets already sold`, "capacity_below_sold", { minimum: sold });
    return {
      id: existing?.id ?? newId("tier", 12),
      name: t.name,
      priceCents: t.priceCents,
      capacity: t.capacity,
      sold,
      fairMarketValueCents: t.fairMarketValueCents,
      description: t.description ?? null,
    };
  });
  for (const c of current) {
    if (!kept.has(c.id) && c.sold > 0)
      issues.add("ticketTiers", `The tier "${c.name}" has ${c.sold} tickets sold and can't be removed`, "tier_has_tickets", {
        values: [c.id],
      });
  }
  issues.throwIfAny();
  return {
    ticketTiers: tiers,
    ticketCapacity: tiers.reduce((n, t) => n + t.capacity, 0),
    ticketPriceCents: Math.min(...tiers.map((t) => t.priceCents)),
  };
}
