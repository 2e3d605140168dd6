import { instantOfWall, wallOf } from "@/lib/time-zone";
import { addDays, dayStart, formatDay, one, readDate, type DateInput } from "./dates";

/**
 * The reports page's window, from its URL: a preset (`range`) or custom dates (`from`/`to`, both
 * days included), in days of the organization's time zone like the API's buckets. Answers
 * API-ready bounds (instants, `to` exclusive), the interval to group by, and words for the heading.
 */
export const PRESETS = [
  { value: "30d", label: "Last 30 days" },
  { value: "month", label: "This month" },
  { value: "last-month", label: "Last month" },
  { value: "year", label: "This year" },
  { value: "all", label: "All time" },
] as const;
export type Preset = (typeof PRESETS)[number]["value"];
export type Interval = "day" | "week" | "month";
export const INTERVALS: { value: Interval; label: string }[] = [
  { value: "day", label: "Day" },
  { value: "week", label: "Week (Monday to Sunday)" },
  { value: "month", label: "Month" },
];

export type ResolvedWindow = {
  range: Preset | "custom";
  /** Inclusive start and exclusive end as ISO instants; null when unbounded. */
  from: string | null;
  to: string | null;
  /** The first and last days included (`YYYY-MM-DD`, local), null when unbounded. */
  firstDay: string | null;
  lastDay: string | null;
  fromInput: DateInput;
  toInput: DateInput;
  toError: string | null;
  interval: Interval;
  /** The interval came from the URL rather than the window's default. */
  intervalChosen: boolean;
  label: string;
};

const iso = (ms: number) => new Date(ms).toISOString();
const monthStart = (y: number, m: number) => Date.UTC(y, m, 1);

function presetBounds(preset: Preset, now: number): { from: number | null; to: number | null } {
  const today = dayStart(now);
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  switch (preset) {
    case "30d":
      return { from: addDays(today, -29), to: addDays(today, 1) };
    case "month":
      return { from: monthStart(y, m), to: monthStart(y, m + 1) };
    case "last-month":
      return { from: monthStart(y, m - 1), to: monthStart(y, m) };
    case "year":
      return { from: Date.UTC(y, 0, 1), to: Date.UTC(y + 1, 0, 1) };
    case "all":
      return { from: null, to: null };
  }
}

/** Day buckets for up to two months, weeks up to a year, months beyond (and for open windows). */
function defaultInterval(range: Preset | "custom", from: number | null, to: number | null): Interval {
  if (range === "30d" || range === "month" || range === "last-month") return "day";
  if (range === "year" || range === "all" || from === null || to === null) return "month";
  const days = (to - from) / 86_400_000;
  return days <= 62 ? "day" : days <= 366 ? "week" : "month";
}

function describe(from: number | null, to: number | null): string {
  if (from === null && to === null) return "All time";
  if (to === null) return `Since ${formatDay(from!)}`;
  const last = formatDay(addDays(to, -1));
  if (from === null) return `Up to ${last}`;
  return from === addDays(to, -1) ? formatDay(from) : `${formatDay(from)} – ${last}`;
}

export function resolveWindow(sp: Record<string, string | string[] | undefined>, timeZone: string, now = Date.now()): ResolvedWindow {
  const fromInput = readDate(sp.from);
  const toInput = readDate(sp.to);
  let toError = toInput.error;
  if (!toError && fromInput.ms !== null && toInput.ms !== null && toInput.ms < fromInput.ms)
    toError = "Must be on or after the “From” date";
  const custom = fromInput.value !== "" || toInput.value !== "";
  const preset = (PRESETS.find((p) => p.value === one(sp.range))?.value ?? "30d") as Preset;
  const range: Preset | "custom" = custom ? "custom" : preset;

  let from: number | null;
  let to: number | null;
  if (custom) {
    from = fromInput.ms;
    to = toInput.ms !== null && !toError ? addDays(toInput.ms, 1) : null;
  } else {
    ({ from, to } = presetBounds(preset, wallOf(timeZone, now)));
  }
  // `from` and `to` are wall times (local midnights counted as UTC) up to here.
  const instant = (wall: number | null) => (wall === null ? null : iso(instantOfWall(timeZone, wall)));
  const day = (wall: number | null) => (wall === null ? null : iso(wall).slice(0, 10));
  const chosen = INTERVALS.find((i) => i.value === one(sp.interval))?.value;
  return {
    range,
    from: instant(from),
    to: instant(to),
    firstDay: day(from),
    lastDay: day(to === null ? null : addDays(to, -1)),
    fromInput,
    toInput,
    toError,
    interval: chosen ?? defaultInterval(range, from, to),
    intervalChosen: chosen !== undefined,
    label: describe(from, to),
  };
}

const UTC = { timeZone: "UTC" } as const;
const dayShort = new Intl.DateTimeFormat("en-US", { ...UTC, month: "short", day: "numeric" });
const dayLong = new Intl.DateTimeFormat("en-US", { ...UTC, dateStyle: "medium" });
const monthShort = new Intl.DateTimeFormat("en-US", { ...UTC, month: "short", year: "numeric" });
const monthLong = new Intl.DateTimeFormat("en-US", { ...UTC, month: "long", year: "numeric" });

/** A bucket's name: long for tooltips and the table, short for the axis. */
export function bucketLabel(date: string, interval: Interval, short = false): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (interval === "month") return (short ? monthShort : monthLong).format(d);
  if (interval === "week") return short ? dayShort.format(d) : `Week of ${dayLong.format(d)}`;
  return (short ? dayShort : dayLong).format(d);
}
