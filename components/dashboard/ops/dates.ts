/**
 * Calendar dates as the filter forms send them (`YYYY-MM-DD`, from `<input type="date">`) and
 * the UTC instants the API filters on. Days are the organization's (its time zone), like the
 * reports' buckets.
 */
import { instantOfWall } from "@/lib/time-zone";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

export type DateInput = { value: string; error: string | null; ms: number | null };

/** A form's date field: empty, a real calendar date, or an error to show next to the field. */
export function readDate(raw: string | string[] | undefined): DateInput {
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim() ?? "";
  if (value === "") return { value, error: null, ms: null };
  if (!DATE.test(value)) return { value, error: "Enter a date like 2026-03-31", ms: null };
  const ms = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return { value, error: "That date does not exist", ms: null };
  const year = new Date(ms).getUTCFullYear();
  if (year < 1000 || year > 9999) return { value, error: "Enter a year between 1000 and 9999", ms: null };
  return { value, error: null, ms };
}

/** Midnight in `timeZone` starting the day (`ms`: the date at 00:00Z), as the API's canonical instant. */
export const startOfDay = (ms: number, timeZone: string) => new Date(instantOfWall(timeZone, ms)).toISOString();
/** Midnight in `timeZone` ending the day (exclusive bound), so a "to" date includes its whole day. */
export const endOfDay = (ms: number, timeZone: string) => new Date(instantOfWall(timeZone, ms + DAY_MS)).toISOString();

export const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const addDays = (ms: number, n: number) => ms + n * DAY_MS;

const fmt = (opts: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-US", { ...opts, timeZone: "UTC" });
const dayFmt = fmt({ dateStyle: "medium" });

/** "Mar 3, 2026" for a UTC midnight. */
export const formatDay = (ms: number) => dayFmt.format(new Date(ms));

/** The value of the first of a repeated query parameter. */
export const one = (v: string | string[] | undefined): string => (Array.isArray(v) ? (v[0] ?? "") : (v ?? ""));

/** Whether an instant has passed (read at call time; a page showing it re-renders on refresh). */
export function isPast(iso: string | Date): boolean {
  return new Date(iso).getTime() < Date.now();
}
