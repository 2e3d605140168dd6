import { z } from "zod";
import { idParam, orgParam } from "@/lib/schemas/common";
import { donationDetailSchema, donationListSchema, exportDonationsQuery, listDonationsQuery } from "@/lib/schemas/donations";
import { donorDetailSchema, donorSchema, exportDonorsQuery, listDonorsQuery } from "@/lib/schemas/donors";
import { listRecurringPlansQuery, recurringPlanSchema } from "@/lib/schemas/recurring-plans";
import { listOf, type OperationRow } from "./types";

const csvFormat = (decimal: string, cents: string) =>
  [
    "UTF-8 with a byte-order mark (so Excel reads accented names and emoji correctly), CRLF line endings, a header",
    "row of the API's field names, RFC 4180 quoting (fields containing a comma, double quote, CR or LF are quoted;",
    `inner quotes doubled). Money appears twice: in decimal units of the currency (\`${decimal}\` "12.34") and in`,
    `cents (\`${cents}\` 1234). Times are ISO 8601 UTC; an empty field is null. **Formula injection**: a text cell`,
    "that starts with `=`, `+`, `-`, `@`, tab or CR is prefixed with a single quote (`'=HYPERLINK(…)`), so a",
    "spreadsheet shows it as text instead of running it. The body is streamed in batches of 2 000 rows, so exports",
    "of any size start at once; errors found before the first byte (validation, authorization) are ordinary JSON errors.",
  ].join(" ");

const csvBody = (columns: string) =>
  z.string().meta({ description: `CSV text; columns: ${columns}.` });

const DONATION_COLUMNS =
  "id, createdAt, succeededAt, status, amount, amountCents, currency, fee, feeCents, matchedAmount, matchedAmountCents, " +
  "email, firstName, lastName, anonymous, campaignId, campaignTitle, donorId, recurringInterval, recurringPlanId, " +
  "isRenewal, tickets, coverFees, message, dedicationType, dedicationHonoreeName, dedicationNotifyEmail, " +
  "dedicationMessage, paymentIntentId, failureReason, disputeReason, updatedAt";
const DONOR_COLUMNS =
  "id, email, firstName, lastName, totalGiven, totalGivenCents, currency, donationCount, firstDonationAt, lastDonationAt, createdAt";

/** What staff and integrations use daily: donations, donors, recurring plans and their CSV exports. */
export const RECORD_OPERATIONS: readonly OperationRow[] = [
  {
    file: "orgs/[idOrSlug]/donations",
    method: "GET",
    operationId: "listDonations",
    summary: "List an organization's donations",
    description:
      "Newest first (by creation time, ties by ID), cursor-paged: pass `pagination.nextCursor` as `cursor` for the " +
      "next page until it is null. Cursors are stable: donations created while paging never shift, repeat or hide a " +
      "row. Filters combine: `status`, `campaignId`, `from` (inclusive) and `to` (exclusive) on the creation time, " +
      "and `q`, a case-insensitive substring of the email, first or last name. A malformed cursor answers 400 on `cursor`.",
    tag: "Donations",
    access: "MEMBER",
    limit: "authenticated",
    params: orgParam,
    query: listDonationsQuery,
    success: 200,
    response: donationListSchema,
    responseDescription: "A page of donations",
    notFound: "Organization not found",
  },
  {
    file: "orgs/[idOrSlug]/donations/export",
    method: "GET",
    operationId: "exportDonations",
    summary: "Export donations as CSV",
    description: `The donations the list would answer for the same filters, in the same order, as a CSV file (\`donations-<org-slug>-<YYYY-MM-DD>.csv\`). ${csvFormat("amount", "amountCents")}`,
    tag: "Donations",
    access: "ADMIN",
    limit: "authenticated",
    params: orgParam,
    query: exportDonationsQuery,
    success: 200,
    response: csvBody(DONATION_COLUMNS),
    responseMediaType: "text/csv",
    responseDescription: "The CSV file",
    notFound: "Organization not found",
  },
  {
    file: "donations/[id]",
    method: "GET",
    operationId: "getDonation",
    summary: "Get a donation with its timeline",
    description:
      "The donation and its `timeline`, oldest first: what happened to it (`kind: \"event\"`: its creation, the " +
      "processor's events, refund requests, each with the status change in `data`) merged with the emails queued " +
      "for it (`kind: \"email\"`, type `email.<template>`: receipt, admin notification, tribute; with recipient, " +
      "delivery status and time sent).",
    tag: "Donations",
    access: "MEMBER",
    limit: "authenticated",
    params: idParam,
    success: 200,
    response: donationDetailSchema,
    responseDescription: "The donation and its timeline",
    notFound: "Donation not found",
  },
  {
    file: "orgs/[idOrSlug]/donors",
    method: "GET",
    operationId: "listDonors",
    summary: "List an organization's donors with their totals",
    description:
      "Page-based (`limit` defaults to 25). Totals count SUCCEEDED donations only. `q` searches the email, first " +
      "and last name; `sort` and `order` choose the order (default: biggest total first).",
    tag: "Donors",
    access: "MEMBER",
    limit: "authenticated",
    params: orgParam,
    query: listDonorsQuery,
    success: 200,
    response: listOf(donorSchema),
    responseDescription: "A page of donors",
    notFound: "Organization not found",
  },
  {
    file: "orgs/[idOrSlug]/donors/export",
    method: "GET",
    operationId: "exportDonors",
    summary: "Export donors as CSV",
    description: `Every donor the list would answer for the same \`q\`, \`sort\` and \`order\`, as a CSV file (\`donors-<org-slug>-<YYYY-MM-DD>.csv\`); totals in the organization's currency. ${csvFormat("totalGiven", "totalGivenCents")}`,
    tag: "Donors",
    access: "ADMIN",
    limit: "authenticated",
    params: orgParam,
    query: exportDonorsQuery,
    success: 200,
    response: csvBody(DONOR_COLUMNS),
    responseMediaType: "text/csv",
    responseDescription: "The CSV file",
    notFound: "Organization not found",
  },
  {
    file: "donors/[id]",
    method: "GET",
    operationId: "getDonor",
    summary: "Get a donor with their history",
    description: "The donor, their 100 newest donations (any status, with the campaign's title) and their recurring plans.",
    tag: "Donors",
    access: "MEMBER",
    limit: "authenticated",
    params: idParam,
    success: 200,
    response: donorDetailSchema,
    responseDescription: "The donor and their history",
    notFound: "Donor not found",
  },
  {
    file: "orgs/[idOrSlug]/recurring-plans",
    method: "GET",
    operationId: "listRecurringPlans",
    summary: "List an organization's recurring plans",
    description:
      "Newest first, page-based (`limit` defaults to 25), optionally of one `status`; each with the count and sum " +
      "of its SUCCEEDED donations (the first gift and every renewal).",
    tag: "Recurring plans",
    access: "MEMBER",
    limit: "authenticated",
    params: orgParam,
    query: listRecurringPlansQuery,
    success: 200,
    response: listOf(recurringPlanSchema),
    responseDescription: "A page of recurring plans",
    notFound: "Organization not found",
  },
  {
    file: "recurring-plans/[id]/cancel",
    method: "POST",
    operationId: "cancelRecurringPlan",
    summary: "Cancel a recurring plan",
    description:
      "Cancels the plan's subscription at the processor, now: no further renewals. The plan becomes CANCELED when " +
      "the processor reports it (`customer.subscription.deleted`; at once in sandbox mode), so the answer is the " +
      "plan as it then stands.",
    tag: "Recurring plans",
    access: "ADMIN",
    limit: "authenticated",
    params: idParam,
    success: 200,
    response: recurringPlanSchema,
    responseDescription: "The plan after the cancellation request",
    notFound: "Recurring plan not found",
    conflicts: ["Recurring plan is already canceled", "Recurring plan has no subscription to cancel"],
  },
];
