import { orgParam } from "@/lib/schemas/common";
import {
  MAX_BUCKETS,
  campaignReportSchema,
  reportSummarySchema,
  reportTimeseriesQuery,
  reportTimeseriesSchema,
  reportWindowQuery,
} from "@/lib/schemas/reports";
import type { OperationRow } from "./types";

const WINDOW =
  "The window is `from` (inclusive) to `to` (exclusive) on the time the money came in (`succeededAt`), both optional " +
  "(absent: unbounded on that side); bounds keep their microseconds. A donation counts when it is SUCCEEDED now: one " +
  "refunded or disputed later leaves `raisedCents`. Over all time the numbers equal the campaigns' own aggregates " +
  "(`raisedAmountCents`, `donationCount`), each donation once. Invalid dates, or `to` before `from`, answer 400.";

/** Reports: totals, time series and per-campaign numbers over a window. */
export const REPORT_OPERATIONS: readonly OperationRow[] = [
  {
    file: "orgs/[idOrSlug]/reports/summary",
    method: "GET",
    operationId: "getReportSummary",
    summary: "Totals for a window",
    description:
      `${WINDOW}\n\nRaised, count, distinct and new donors, average gift, refunds and disputes in the window, and the ` +
      "monthly value of the recurring plans active now. Over all time `raisedCents` and `count` equal the sum of the " +
      "`raisedAmountCents` and `donationCount` of the campaigns that are not fundraiser pages (a peer-to-peer parent's " +
      "already include its pages').",
    tag: "Reports",
    access: "MEMBER",
    limit: "authenticated",
    params: orgParam,
    query: reportWindowQuery,
    success: 200,
    response: reportSummarySchema,
    responseDescription: "The window as understood and its numbers",
    notFound: "Organization not found",
  },
  {
    file: "orgs/[idOrSlug]/reports/timeseries",
    method: "GET",
    operationId: "getReportTimeseries",
    summary: "Raised and count per day, week or month",
    description:
      `${WINDOW}\n\nBuckets are UTC calendar units (\`date_trunc\` in UTC): days from 00:00Z, ISO weeks from Monday ` +
      `00:00Z, months from the 1st at 00:00Z; empty buckets are listed with zeros. At most ${MAX_BUCKETS} buckets: a ` +
      "longer series answers 400 on `interval`.",
    tag: "Reports",
    access: "MEMBER",
    limit: "authenticated",
    params: orgParam,
    query: reportTimeseriesQuery,
    success: 200,
    response: reportTimeseriesSchema,
    responseDescription: "Consecutive buckets, oldest first",
    notFound: "Organization not found",
  },
  {
    file: "orgs/[idOrSlug]/reports/campaigns",
    method: "GET",
    operationId: "getCampaignReport",
    summary: "Raised, count and donors per campaign",
    description:
      `${WINDOW}\n\nEvery campaign, highest raised first. \`raisedCents\`/\`count\` are the campaign's own donations; ` +
      "`raisedIncludingPagesCents`/`countIncludingPages` add a peer-to-peer parent's fundraiser pages and, over all " +
      "time, equal the campaign's `raisedAmountCents`/`donationCount` exactly.",
    tag: "Reports",
    access: "MEMBER",
    limit: "authenticated",
    params: orgParam,
    query: reportWindowQuery,
    success: 200,
    response: campaignReportSchema,
    responseDescription: "Every campaign with its numbers in the window",
    notFound: "Organization not found",
  },
];
