/*
 * The reports' window and buckets. A window is `from` (inclusive) to `to` (exclusive) on the time
 * the money came in (`succeeded_at`), both optional (absent: unbounded on that side). Bounds are
 * kept as canonical UTC strings with their microseconds (Postgres' precision), bound as text and
 * cast in SQL, never squeezed through a JS Date: a bound one microsecond after a gift excludes it.
 * Buckets are calendar units of the organization's time zone: a day starts at its midnight, a
 * week on Monday (ISO weeks, Postgres' `date_trunc('week')`), a month on the 1st. Bucket
 * arithmetic is done on wall milliseconds (lib/time-zone.ts): in UTC they are the instants.
 */
import { DEFAULT_TIME_ZONE, instantOfWall, midnightOf, wallOf } from "./time-zone";

export const REPORT_INTERVALS = ["day", "week", "month"] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/** A time series never has more buckets than this; a longer one is a 400 on `interval`. */
export const MAX_BUCKETS = 1000;

const DAY_MS = 86_400_000;
export const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A bound as a canonical UTC string: `2030-01-31T12:00:00.000Z`, or with six fraction digits
 * (`…00.000001Z`) when it has sub-millisecond ones. Digits past the microsecond are dropped.
 * A date alone is midnight of that day in `tz`.
 */
export function canonicalInstant(input: string, tz: string = DEFAULT_TIME_ZONE): string {
  if (DATE_ONLY.test(input)) return new Date(midnightOf(tz, input)).toISOString();
  const fraction = /T\d{2}:\d{2}:\d{2}\.(\d+)/.exec(input)?.[1] ?? "";
  const micros = fraction.padEnd(6, "0").slice(3, 6);
  const base = new Date(Date.parse(input)).toISOString();
  return micros === "000" ? base : base.replace("Z", `${micros}Z`);
}

/** An instant split into whole milliseconds since the epoch and the microseconds past them (0–999). */
export type Instant = { ms: number; micros: number };

export function instantOf(canonical: string): Instant {
  const micros = /\.\d{3}(\d{3})Z$/.exec(canonical)?.[1];
  return { ms: Date.parse(canonical), micros: micros ? Number(micros) : 0 };
}

export function compareInstants(a: string, b: string): number {
  const x = instantOf(a);
  const y = instantOf(b);
  return x.ms - y.ms || x.micros - y.micros;
}

/** The window after parsing: canonical bounds, null when absent. */
export type ReportWindow = { from: string | null; to: string | null };

export function tooManyBuckets(n: number, interval: ReportInterval): string {
  return `The window spans ${n} ${interval} buckets; at most ${MAX_BUCKETS}: use a longer interval or a shorter window`;
}

// ---------------------------------------------------------------------------------------------
// Bucket arithmetic, on wall milliseconds. A bucket is named by its start's local date.

/** The start of the bucket holding the wall time `ms`. */
export function bucketStart(ms: number, interval: ReportInterval): number {
  const day = Math.floor(ms / DAY_MS) * DAY_MS;
  if (interval === "day") return day;
  if (interval === "week") return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

export function nextBucket(start: number, interval: ReportInterval): number {
  if (interval === "day") return start + DAY_MS;
  if (interval === "week") return start + 7 * DAY_MS;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Buckets from `first` to `last`, both included (0 when `last` is before `first`). */
export function bucketCount(first: number, last: number, interval: ReportInterval): number {
  if (last < first) return 0;
  if (interval === "month") {
    const a = new Date(first);
    const b = new Date(last);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1;
  }
  return Math.round((last - first) / (interval === "day" ? DAY_MS : 7 * DAY_MS)) + 1;
}

/** The bucket holding `from`, in `tz`. */
export const firstBucket = (from: string, interval: ReportInterval, tz: string = DEFAULT_TIME_ZONE) =>
  bucketStart(wallOf(tz, instantOf(from).ms), interval);

/** The bucket holding the last instant before `to` (one microsecond earlier), in `tz`. */
export function lastBucket(to: string, interval: ReportInterval, tz: string = DEFAULT_TIME_ZONE): number {
  const { ms, micros } = instantOf(to);
  return bucketStart(wallOf(tz, micros > 0 ? ms : ms - 1), interval);
}

/** `from`–`to` split at local midnights: whole days (as `YYYY-MM-DD`, end exclusive) and the partial days around them. */
export type DaySplit = {
  /** Whole local days inside the window, null when there are none; a null bound is unbounded. */
  days: { from: string | null; to: string | null } | null;
  /** Sub-day pieces at the edges, as canonical instants (null: unbounded), `from` inclusive, `to` exclusive. */
  edges: { from: string | null; to: string | null }[];
};

const dateOf = (wall: number) => new Date(wall).toISOString().slice(0, 10);

export function splitAtMidnights(w: ReportWindow, tz: string = DEFAULT_TIME_ZONE): DaySplit {
  const from = w.from === null ? null : instantOf(w.from);
  const to = w.to === null ? null : instantOf(w.to);
  const wallFrom = from === null ? null : wallOf(tz, from.ms);
  const wallTo = to === null ? null : wallOf(tz, to.ms);
  const atMidnight = (i: Instant, wall: number) => i.micros === 0 && wall % DAY_MS === 0;
  // First whole local day at or after `from`; end (exclusive) of the last whole day before `to`: wall dates.
  const dayFrom = from === null ? null : atMidnight(from, wallFrom!) ? wallFrom! : Math.floor(wallFrom! / DAY_MS) * DAY_MS + DAY_MS;
  const dayTo = to === null ? null : Math.floor(wallTo! / DAY_MS) * DAY_MS;
  if (dayFrom !== null && dayTo !== null && dayFrom >= dayTo) {
    return { days: null, edges: compareInstants(w.from!, w.to!) < 0 ? [{ from: w.from, to: w.to }] : [] };
  }
  const edges: DaySplit["edges"] = [];
  const instant = (wall: number) => new Date(instantOfWall(tz, wall)).toISOString();
  if (from !== null && dayFrom !== wallFrom) edges.push({ from: w.from, to: instant(dayFrom!) });
  if (to !== null && !atMidnight(to, wallTo!)) edges.push({ from: instant(dayTo!), to: w.to });
  return { days: { from: dayFrom === null ? null : dateOf(dayFrom), to: dayTo === null ? null : dateOf(dayTo) }, edges };
}
