import type { recurringIntervalEnum } from "@/db/schema/donations";

/** How often a plan charges: the database's enum, the one list the API schemas also take. */
export type RecurringInterval = (typeof recurringIntervalEnum.enumValues)[number];

/** How a processor price recurs: Stripe's `recurring.interval` and `interval_count` (a quarter is three months). */
export type ProcessorInterval = { interval: "week" | "month" | "year"; intervalCount: number };

const PROCESSOR: Record<RecurringInterval, ProcessorInterval> = {
  WEEK: { interval: "week", intervalCount: 1 },
  MONTH: { interval: "month", intervalCount: 1 },
  QUARTER: { interval: "month", intervalCount: 3 },
  YEAR: { interval: "year", intervalCount: 1 },
};

export function processorIntervalOf(interval: RecurringInterval): ProcessorInterval {
  return PROCESSOR[interval];
}

/** Charges a year: what turns a gift per cycle into monthly recurring revenue. */
export const CYCLES_PER_YEAR: Record<RecurringInterval, number> = { WEEK: 52, MONTH: 12, QUARTER: 4, YEAR: 1 };

/** Months a cycle lasts (a week is 12/52 of a month): the donor account's "giving for N months". */
export const MONTHS_PER_CYCLE: Record<RecurringInterval, number> = { WEEK: 12 / 52, MONTH: 1, QUARTER: 3, YEAR: 12 };

/** The monthly recurring revenue of a gift per cycle, in whole minor units (rounded half up). */
export function monthlyRecurringCents(amountCents: number, interval: RecurringInterval): number {
  return Math.round((amountCents * CYCLES_PER_YEAR[interval]) / 12);
}

/** The date one cycle after `from` (month ends clamp: Jan 31 + 1 month is Feb 28/29, as Stripe bills). */
export function nextCycleDate(from: Date, interval: RecurringInterval): Date {
  const next = new Date(from.getTime());
  if (interval === "WEEK") {
    next.setUTCDate(next.getUTCDate() + 7);
    return next;
  }
  const months = interval === "MONTH" ? 1 : interval === "QUARTER" ? 3 : 12;
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}
