import type { Campaign } from "@/db/schema";

/** Whether the campaign's donate form offers the monthly upsell: a gift campaign taking recurring gifts, with the offer on. */
export function offersMonthlyUpsell(c: Pick<Campaign, "type" | "allowRecurring" | "monthlyUpsell">): boolean {
  return c.monthlyUpsell && c.allowRecurring && (c.type === "DONATION" || c.type === "PEER_TO_PEER");
}

/**
 * The smaller monthly gift offered after a one-time choice of `oneTimeCents`, from the campaign's
 * own amounts: the largest suggested amount at most half of it, else the smallest suggested amount
 * below it, else a third of it in whole units; never under `minCents`. Null when nothing smaller fits.
 */
export function monthlyUpsellCents(oneTimeCents: number, suggested: number[], minCents: number, unitCents = 100): number | null {
  const eligible = [...suggested].filter((a) => a >= minCents && a < oneTimeCents).sort((a, b) => a - b);
  const half = eligible.filter((a) => a * 2 <= oneTimeCents);
  if (half.length > 0) return half[half.length - 1];
  if (eligible.length > 0) return eligible[0];
  const third = Math.floor(oneTimeCents / 3 / unitCents) * unitCents;
  return third >= minCents && third < oneTimeCents ? third : null;
}
