import { z } from "zod";
import { CAMPAIGN_STATUSES, CAMPAIGN_TYPES } from "./campaigns";
import { pagePagination } from "./common";

/*
 * The reports' window and buckets. A window is `from` (inclusive) to `to` (exclusive) on the time
 * the money came in (`succeeded_at`), both optional (absent: unbounded on that side). Bounds are
 * kept as canonical UTC strings with their microseconds (Postgres' precision), bound as text and
 * cast in SQL, never squeezed through a JS Date: a bound one microsecond after a gift excludes it.
 * Buckets are UTC calendar units: a day starts at 00:00Z, a week on Monday 00:00Z (ISO weeks,
 * Postgres' `date_trunc('week')`), a month on the 1st at 00:00Z.
 */

export const REPORT_INTERVALS = ["day", "week", "month"] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/** A time series never has more buckets than this; a longer one is a 400 on `interval`. */
export const MAX_BUCKETS = 1000;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = z.iso.datetime({ offset: true });
const DATE = z.iso.date();

/**
 * A bound as a canonical UTC string: `2030-01-31T12:00:00.000Z`, or with six fraction digits
 * (`…00.000001Z`) when it has sub-millisecond ones. Digits past the microsecond are dropped.
 * A date alone is midnight UTC of that day.
 */
export function canonicalInstant(input: string): string {
  if (DATE_ONLY.test(input)) return `${input}T00:00:00.000Z`;
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

const instantParam = (description: string) =>
  z
    .string()
    .max(64)
    .meta({ description })
    .superRefine((s, ctx) => {
      if (!DATE_TIME.safeParse(s).success && !DATE.safeParse(s).success) {
        ctx.addIssue({
          code: "custom",
          message: "Must be an ISO 8601 date-time with an offset (2030-01-31T12:00:00Z) or a date (2030-01-31)",
        });
        return;
      }
      const year = new Date(Date.parse(DATE_ONLY.test(s) ? `${s}T00:00:00Z` : s)).getUTCFullYear();
      // Postgres has no year 0 and the drivers misread years below 100; nobody reports on those.
      if (!(year >= 1000 && year <= 9999)) ctx.addIssue({ code: "custom", message: "Must be between the years 1000 and 9999" });
    })
    .transform(canonicalInstant);

const windowFields = {
  from: instantParam(
    "Start of the window, inclusive, on the time the money came in (`succeededAt`): an ISO 8601 date-time with an offset, " +
      "or a date (midnight UTC). Absent: since the beginning.",
  ).optional(),
  to: instantParam("End of the window, exclusive (same formats as `from`). Absent: up to now and beyond.").optional(),
};

type WindowInput = { from?: string; to?: string };

function compareInstants(a: string, b: string): number {
  const x = instantOf(a);
  const y = instantOf(b);
  return x.ms - y.ms || x.micros - y.micros;
}

function checkOrder(v: WindowInput, ctx: z.RefinementCtx) {
  if (v.from !== undefined && v.to !== undefined && compareInstants(v.from, v.to) > 0) {
    ctx.addIssue({ code: "custom", message: "Must not be before `from`", path: ["to"] });
  }
}

export const reportWindowQuery = z.object(windowFields).superRefine(checkOrder);

export const reportTimeseriesQuery = z
  .object({
    ...windowFields,
    interval: z
      .enum(REPORT_INTERVALS)
      .default("day")
      .meta({ description: "Bucket size: `day`, `week` (Monday to Sunday) or `month`, in UTC. Default `day`." }),
  })
  .superRefine((v, ctx) => {
    checkOrder(v, ctx);
    if (v.from === undefined || v.to === undefined || compareInstants(v.from, v.to) >= 0) return;
    const n = bucketCount(firstBucket(v.from, v.interval), lastBucket(v.to, v.interval), v.interval);
    if (n > MAX_BUCKETS) ctx.addIssue({ code: "custom", message: tooManyBuckets(n, v.interval), path: ["interval"] });
  });

/** The window after parsing: canonical bounds, null when absent. */
export type ReportWindow = { from: string | null; to: string | null };

export const windowOf = (q: WindowInput): ReportWindow => ({ from: q.from ?? null, to: q.to ?? null });

export function tooManyBuckets(n: number, interval: ReportInterval): string {
  return `The window spans ${n} ${interval} buckets; at most ${MAX_BUCKETS}: use a longer interval or a shorter window`;
}

// ---------------------------------------------------------------------------------------------
// Bucket arithmetic, in UTC. A bucket is named by its start in milliseconds since the epoch.

/** The start of the bucket holding the instant `ms`. */
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

/** The bucket holding `from`. */
export const firstBucket = (from: string, interval: ReportInterval) => bucketStart(instantOf(from).ms, interval);

/** The bucket holding the last instant before `to` (one microsecond earlier). */
export function lastBucket(to: string, interval: ReportInterval): number {
  const { ms, micros } = instantOf(to);
  return bucketStart(micros > 0 ? ms : ms - 1, interval);
}

/** `from`–`to` split at UTC midnights: whole days (as `YYYY-MM-DD`, end exclusive) and the partial days around them. */
export type DaySplit = {
  /** Whole UTC days inside the window, null when there are none; a null bound is unbounded. */
  days: { from: string | null; to: string | null } | null;
  /** Sub-day pieces at the edges, as canonical instants (null: unbounded), `from` inclusive, `to` exclusive. */
  edges: { from: string | null; to: string | null }[];
};

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function splitAtMidnights(w: ReportWindow): DaySplit {
  const from = w.from === null ? null : instantOf(w.from);
  const to = w.to === null ? null : instantOf(w.to);
  const atMidnight = (i: Instant) => i.micros === 0 && i.ms % DAY_MS === 0;
  // First whole day at or after `from`; end (exclusive) of the last whole day before `to`.
  const dayFrom = from === null ? null : atMidnight(from) ? from.ms : Math.floor(from.ms / DAY_MS) * DAY_MS + DAY_MS;
  const dayTo = to === null ? null : Math.floor(to.ms / DAY_MS) * DAY_MS;
  if (dayFrom !== null && dayTo !== null && dayFrom >= dayTo) {
    return { days: null, edges: compareInstants(w.from!, w.to!) < 0 ? [{ from: w.from, to: w.to }] : [] };
  }
  const edges: DaySplit["edges"] = [];
  if (from !== null && dayFrom !== from.ms) edges.push({ from: w.from, to: new Date(dayFrom!).toISOString() });
  if (to !== null && !atMidnight(to)) edges.push({ from: new Date(dayTo!).toISOString(), to: w.to });
  return { days: { from: dayFrom === null ? null : dateOf(dayFrom), to: dayTo === null ? null : dateOf(dayTo) }, edges };
}

// ---------------------------------------------------------------------------------------------
// Responses

const windowEcho = {
  from: z.string().nullable().meta({ description: "The window's start as understood (UTC), null when unbounded." }),
  to: z.string().nullable().meta({ description: "The window's end as understood (UTC, exclusive), null when unbounded." }),
};

const int = (description: string) => z.number().int().meta({ description });

/** Every report names its one currency: an organization's currency is locked once it has taken donations. */
const reportCurrency = z.string().meta({
  description:
    "The organization's currency; every amount is in its minor unit (cents for usd, yen for jpy). It cannot change once " +
    "the organization has taken a donation, so a report never adds up amounts in different currencies.",
});

export const reportSummarySchema = z
  .object({
    ...windowEcho,
    currency: reportCurrency,
    raisedCents: int("Sum of `amount` of the donations now SUCCEEDED whose `succeededAt` is in the window (gross of fees and matching)."),
    count: int("How many donations those are."),
    donors: int("Distinct donors among them."),
    newDonors: int(
      "Donors whose first counted gift (earliest `succeededAt` of their donations now SUCCEEDED, the donor's " +
        "`firstDonationAt`) is in the window. Always at most `donors`.",
    ),
    averageGiftCents: int("`raisedCents / count` rounded to the nearest cent (halves up); 0 when `count` is 0."),
    recurringMonthlyValueCents: int(
      "Monthly value of the recurring plans ACTIVE now (not windowed): monthly plans' amounts plus one twelfth of " +
        "yearly plans' amounts, summed exactly and rounded once to the nearest cent (halves up).",
    ),
    refundedCents: int(
      "Sum of `amount` of the donations now REFUNDED whose `succeededAt` (or `createdAt` if it never succeeded) is in the window.",
    ),
    refundedCount: int("How many donations those are."),
    disputedCents: int(
      "Sum of `amount` of the donations now DISPUTED whose `succeededAt` (or `createdAt` if it never succeeded) is in the window.",
    ),
    disputedCount: int("How many donations those are."),
  })
  .meta({ id: "ReportSummary" });

export type ReportSummary = z.output<typeof reportSummarySchema>;

export const timeseriesBucketSchema = z
  .object({
    start: z.string().meta({ description: "Start of the bucket (UTC midnight; Monday for weeks, the 1st for months)." }),
    raisedCents: int("Sum of `amount` of the donations now SUCCEEDED that succeeded in this bucket and in the window."),
    count: int("How many donations those are."),
  })
  .meta({ id: "TimeseriesBucket" });

export type TimeseriesBucket = z.output<typeof timeseriesBucketSchema>;

export const reportTimeseriesSchema = z
  .object({
    ...windowEcho,
    currency: reportCurrency,
    interval: z.enum(REPORT_INTERVALS),
    buckets: z.array(timeseriesBucketSchema).meta({
      description:
        "Consecutive buckets, oldest first, empty ones included: from the bucket holding `from` (absent: the first bucket " +
        "with a counted gift) to the bucket holding the last instant before `to` (absent: the last bucket with a counted " +
        "gift). Edge buckets count only the part inside the window. Over the whole window they add up to the summary's " +
        "`raisedCents` and `count`.",
    }),
  })
  .meta({ id: "ReportTimeseries" });

export type ReportTimeseries = z.output<typeof reportTimeseriesSchema>;

export const campaignReportRowSchema = z
  .object({
    campaignId: z.string(),
    title: z.string(),
    status: z.enum(CAMPAIGN_STATUSES),
    type: z.enum(CAMPAIGN_TYPES),
    parentCampaignId: z.string().nullable(),
    goalAmountCents: z.number().int().nullable(),
    raisedCents: int(
      "The campaign's own donations now SUCCEEDED that succeeded in the window (a peer-to-peer parent's exclude its " +
        "fundraiser pages', which have rows of their own). Over all time: the campaign's `raisedAmountCents`, minus its pages' for a parent.",
    ),
    count: int("How many donations those are."),
    donors: int("Distinct donors among them."),
    raisedIncludingPagesCents: int(
      "`raisedCents` plus that of the campaign's fundraiser pages (a peer-to-peer parent); equal to `raisedCents` for " +
        "other campaigns. Over all time: exactly the campaign's `raisedAmountCents`.",
    ),
    countIncludingPages: int("`count` plus that of the fundraiser pages. Over all time: exactly the campaign's `donationCount`."),
  })
  .meta({ id: "CampaignReportRow" });

export type CampaignReportRow = z.output<typeof campaignReportRowSchema>;

export const campaignReportSchema = z
  .object({
    ...windowEcho,
    currency: reportCurrency,
    data: z.array(campaignReportRowSchema).meta({
      description:
        "Every campaign of the organization (one page holding them all), those with nothing in the window included, " +
        "by `raisedCents` (highest first), then title, then ID. Their `raisedCents` and `count` add up to the summary's.",
    }),
    pagination: pagePagination,
  })
  .meta({ id: "CampaignReport" });

export type CampaignReport = z.output<typeof campaignReportSchema>;
