import { z } from "zod";
import {
  bucketCount,
  canonicalInstant,
  compareInstants,
  DATE_ONLY,
  firstBucket,
  lastBucket,
  MAX_BUCKETS,
  REPORT_INTERVALS,
  tooManyBuckets,
  type ReportWindow,
} from "@/lib/report-window";
import { CAMPAIGN_STATUSES, CAMPAIGN_TYPES } from "./campaigns";
import { pagePagination } from "./common";

// The reports' query parameters and responses; the window's and buckets' arithmetic is lib/report-window.ts.

const DATE_TIME = z.iso.datetime({ offset: true });
const DATE = z.iso.date();

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
    // A date alone stays a date until the organization's time zone says when its midnight is (windowOf).
    .transform((s) => (DATE_ONLY.test(s) ? s : canonicalInstant(s)));

const windowFields = {
  from: instantParam(
    "Start of the window, inclusive, on the time the money came in (`succeededAt`): an ISO 8601 date-time with an offset, " +
      "or a date (midnight in the organization's `timeZone`). Absent: since the beginning.",
  ).optional(),
  to: instantParam("End of the window, exclusive (same formats as `from`). Absent: up to now and beyond.").optional(),
};

type WindowInput = { from?: string; to?: string };

function checkOrder(v: WindowInput, ctx: z.RefinementCtx) {
  if (v.from !== undefined && v.to !== undefined && compareInstants(canonicalInstant(v.from), canonicalInstant(v.to)) > 0) {
    ctx.addIssue({ code: "custom", message: "Must not be before `from`", path: ["to"] });
  }
}

export const reportWindowQuery = z.object(windowFields).superRefine(checkOrder);

export const reportTimeseriesQuery = z
  .object({
    ...windowFields,
    interval: z.enum(REPORT_INTERVALS).default("day").meta({
      description: "Bucket size: `day`, `week` (Monday to Sunday) or `month`, in the organization's `timeZone`. Default `day`.",
    }),
  })
  .superRefine((v, ctx) => {
    checkOrder(v, ctx);
    if (v.from === undefined || v.to === undefined) return;
    // Counted in UTC here (a time zone moves the ends by less than a bucket); the query counts again in the organization's.
    const [from, to] = [canonicalInstant(v.from), canonicalInstant(v.to)];
    if (compareInstants(from, to) >= 0) return;
    const n = bucketCount(firstBucket(from, v.interval), lastBucket(to, v.interval), v.interval);
    if (n > MAX_BUCKETS) ctx.addIssue({ code: "custom", message: tooManyBuckets(n, v.interval), path: ["interval"] });
  });

/** The window as understood: canonical instants, a date alone being its midnight in the organization's time zone `tz`. */
export const windowOf = (q: WindowInput, tz: string): ReportWindow => ({
  from: q.from === undefined ? null : canonicalInstant(q.from, tz),
  to: q.to === undefined ? null : canonicalInstant(q.to, tz),
});

// ---------------------------------------------------------------------------------------------
// Responses

const windowEcho = {
  from: z
    .string()
    .nullable()
    .meta({
      description:
        "The window's start as understood (UTC; a date alone is its midnight in the organization's time zone), null when unbounded.",
    }),
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
      "Monthly value of the recurring plans ACTIVE now (not windowed): one twelfth of what they charge in a year " +
        "(weekly × 52, monthly × 12, quarterly × 4, yearly × 1), summed exactly and rounded once to the nearest cent (halves up).",
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
    start: z.string().meta({
      description:
        "Start of the bucket, as a UTC instant: midnight in the organization's time zone (of a Monday for weeks, of the 1st for months).",
    }),
    date: z.string().meta({ description: "The bucket's first day in the organization's time zone, `YYYY-MM-DD`.", example: "2026-11-02" }),
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

export const recurringReportSchema = z
  .object({
    ...windowEcho,
    currency: reportCurrency,
    activePlans: int("Recurring plans ACTIVE now (not windowed)."),
    pastDuePlans: int("Recurring plans PAST_DUE now (not windowed): a renewal was declined and the processor is retrying it."),
    monthlyRecurringCents: int(
      "Monthly recurring revenue of the plans ACTIVE now (not windowed): one twelfth of what they charge in a year, rounded once (halves up).",
    ),
    recoveredCents: int("Sum of the renewals paid after their invoice had failed, whose recovery is in the window (each counted once)."),
    lostCents: int("Sum of the amounts due of the renewal invoices the processor gave up on (ending the plan), in the window."),
    upsellOffered: int("Gifts started in the window whose donor was offered the monthly upsell (accepted, declined or unanswered)."),
    upsellAccepted: int("Of those, the ones that took the monthly gift."),
    abandonedReminded: int("Unfinished-gift reminders sent in the window."),
    abandonedRecovered: int("Of those, the ones followed by a completed gift of the same donor to the same campaign."),
  })
  .meta({ id: "RecurringReport" });
