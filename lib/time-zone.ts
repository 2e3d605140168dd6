/*
 * An organization's time zone: an IANA name (`America/New_York`), "UTC" by default. Its
 * campaigns' and events' dates are shown in it to donors and staff alike (pages, emails, PDFs),
 * and the reports' days start at its midnights.
 *
 * "Wall" milliseconds are a local date and time counted as if it were UTC: the wall time of an
 * instant is the instant plus the zone's offset then. Calendar arithmetic (days, weeks, months)
 * is done on wall milliseconds with the UTC methods of Date, which have no daylight saving.
 */

export const DEFAULT_TIME_ZONE = "UTC";

const DAY_MS = 86_400_000;

/** The IANA names this runtime knows, with UTC (which `Intl.supportedValuesOf` leaves out). */
export function timeZoneNames(): string[] {
  return [DEFAULT_TIME_ZONE, ...Intl.supportedValuesOf("timeZone").filter((z) => z !== DEFAULT_TIME_ZONE)];
}

/** Whether `tz` is a time zone this runtime can format in (IANA names and their aliases, exactly as written). */
export function isTimeZone(tz: string): boolean {
  if (tz.length === 0 || tz.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const partsFormat = new Map<string, Intl.DateTimeFormat>();

function formatFor(tz: string): Intl.DateTimeFormat {
  let f = partsFormat.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    partsFormat.set(tz, f);
  }
  return f;
}

/** The zone's offset from UTC at the instant `ms`, in milliseconds (New York in winter: -5 h). */
export function offsetAt(tz: string, ms: number): number {
  if (tz === DEFAULT_TIME_ZONE) return 0;
  const p: Record<string, number> = {};
  for (const part of formatFor(tz).formatToParts(new Date(ms))) if (part.type !== "literal") p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
}

/** The wall time of the instant `ms` in `tz`. */
export const wallOf = (tz: string, ms: number) => ms + offsetAt(tz, ms);

/**
 * The instant whose wall time in `tz` is `wall`. A wall time that happens twice (clocks going
 * back) answers the first; one skipped by clocks going forward is read with the offset before
 * the jump (02:30 on a spring-forward night in New York is 03:30 after it).
 */
export function instantOfWall(tz: string, wall: number): number {
  if (tz === DEFAULT_TIME_ZONE) return wall;
  const before = offsetAt(tz, wall - DAY_MS);
  const after = offsetAt(tz, wall + DAY_MS);
  // Try the earlier offset first (the first of a repeated hour), then the later one.
  for (const off of before >= after ? [before, after] : [after, before]) {
    if (wallOf(tz, wall - off) === wall) return wall - off;
  }
  // Skipped (spring forward): read with the offset before the jump.
  return wall - Math.min(before, after);
}

/** The instant of local midnight starting `date` (`YYYY-MM-DD`) in `tz`. */
export function midnightOf(tz: string, date: string): number {
  return instantOfWall(tz, Date.parse(`${date}T00:00:00.000Z`));
}

/** A `datetime-local` value (`2026-12-05T19:30`) read as a wall time in `tz`, as an ISO instant; null if unreadable. */
export function wallInputToIso(tz: string, value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const wall = Date.parse(`${value.length === 16 ? `${value}:00` : value}.000Z`);
  return Number.isNaN(wall) ? null : new Date(instantOfWall(tz, wall)).toISOString();
}

/** The instant `iso` as a `datetime-local` value in `tz` (`2026-12-05T19:30`). */
export function isoToWallInput(tz: string, iso: string): string {
  return new Date(wallOf(tz, Date.parse(iso))).toISOString().slice(0, 16);
}

/** The name shown for a zone: "America/New York", "UTC". */
export const timeZoneLabel = (tz: string) => tz.replace(/_/g, " ");
