import { z } from "zod";
import { DONOR_GIFT_STATUSES, type DonorDonationRow } from "@/db/queries/donor-account";
import type { RecurringPlanRow } from "@/db/queries/recurring-plans";
import type { RecurringPlan } from "@/db/schema";
import { LOCALES } from "@/lib/i18n/locales";
import { email, iso, pageQuery } from "./common";
import { RECURRING_INTERVALS } from "./donations";
import { RECURRING_PLAN_STATUSES } from "./recurring-plans";

/** Path parameters of the donor account API, `/api/donor/orgs/[orgSlug]/...` (the wrapper's `auth: "donor"` reads `orgSlug`). */
export const donorOrgParam = z.object({ orgSlug: z.string().min(1).max(100) });

/** `POST /api/public/orgs/:orgSlug/donor-sessions`: the address to email a sign-in link to. */
export const donorSignInBody = z
  .object({
    email: email.meta({ description: "The address the donor gave with their gifts (any case)." }),
    locale: z.enum(LOCALES).optional().meta({
      description:
        "The language of the sign-in email (en, es, fr, de): the page's. Without it, the request's `Accept-Language`, else the organization's `defaultLocale`.",
    }),
  })
  .meta({ id: "DonorSignInRequest" });

export const donorSignInAnswer = z
  .object({ sent: z.literal(true).meta({ description: "Always true, whether or not the address is a donor's (no enumeration)." }) })
  .meta({ id: "DonorSignInAnswer" });

/** How many of a donor's own gifts or recurring plans a page holds unless `limit` says otherwise. */
export const DONOR_LIST_DEFAULT_LIMIT = 25;

export const donorListQuery = z.object({ ...pageQuery });

export const donorDonationSchema = z
  .object({
    id: z.string().meta({ description: "The donation ID, as printed on the receipt." }),
    campaignId: z.string(),
    campaignTitle: z.string(),
    amount: z.number().int().meta({ description: "The gift, in the currency's minor unit (without covered fees)." }),
    feeCents: z.number().int().meta({ description: "Fees the donor chose to cover, on top of `amount`." }),
    currency: z.string(),
    status: z.enum(DONOR_GIFT_STATUSES),
    recurringInterval: z.enum(RECURRING_INTERVALS).nullable(),
    recurringPlanId: z.string().nullable(),
    isRenewal: z.boolean(),
    tickets: z.number().int().nullable(),
    createdAt: z.string(),
    succeededAt: z.string().nullable(),
    receiptUrl: z
      .string()
      .meta({ description: "The gift's confirmation page on the organization's donate pages (`…/thank-you?donation={id}`)." }),
    receiptNumber: z.string().nullable().meta({ description: "The gift's receipt number, once it has a receipt." }),
    receiptPdfPath: z
      .string()
      .nullable()
      .meta({
        description:
          "Where the donor downloads the gift's receipt as a PDF with their cookie (`/api/donor/orgs/{orgSlug}/donations/{id}/receipt.pdf`, " +
          "on the host serving the account page); null while the gift has no receipt number.",
      }),
  })
  .meta({ id: "DonorAccountGift" });

export type DonorDonationView = z.output<typeof donorDonationSchema>;

/** The donor's download of one gift's receipt PDF (GET, donor cookie). */
export const donorReceiptPath = (orgSlug: string, donationId: string) =>
  `/api/donor/orgs/${encodeURIComponent(orgSlug)}/donations/${encodeURIComponent(donationId)}/receipt.pdf`;

/** `/api/donor/orgs/:orgSlug/donations/:id/receipt.pdf`'s parameters. */
export const donorReceiptParams = donorOrgParam.extend({ id: z.string().min(1).max(100) });

export function serializeDonorDonation(r: DonorDonationRow, baseUrl: string, orgSlug: string): z.output<typeof donorDonationSchema> {
  const d = r.donation;
  return {
    id: d.id,
    campaignId: d.campaignId,
    campaignTitle: r.campaignTitle,
    amount: d.amount,
    feeCents: d.feeCents,
    currency: d.currency,
    status: d.status as (typeof DONOR_GIFT_STATUSES)[number],
    recurringInterval: d.recurringInterval,
    recurringPlanId: d.recurringPlanId,
    isRenewal: d.isRenewal,
    tickets: d.tickets,
    createdAt: iso(d.createdAt)!,
    succeededAt: iso(d.succeededAt),
    receiptUrl: `${baseUrl}/donate/${r.campaignSlug}/thank-you?donation=${encodeURIComponent(d.id)}`,
    receiptNumber: d.receiptNumber,
    receiptPdfPath: d.receiptNumber ? donorReceiptPath(orgSlug, d.id) : null,
  };
}

export const donorRecurringPlanSchema = z
  .object({
    id: z.string(),
    campaignId: z.string(),
    campaignTitle: z.string(),
    amount: z.number().int().meta({ description: "The gift per cycle, in the currency's minor unit." }),
    currency: z.string(),
    interval: z.enum(RECURRING_INTERVALS),
    status: z.enum(RECURRING_PLAN_STATUSES),
    createdAt: z.string(),
    canceledAt: z.string().nullable(),
    canceledBy: z.enum(["donor", "staff", "processor"]).nullable(),
    donationCount: z.number().int().meta({ description: "How many of its charges SUCCEEDED." }),
    totalCents: z.number().int().meta({ description: "The sum of those charges." }),
  })
  .meta({ id: "DonorAccountPlan" });

export type DonorRecurringPlanView = z.output<typeof donorRecurringPlanSchema>;

export function serializeDonorRecurringPlan(r: RecurringPlanRow): z.output<typeof donorRecurringPlanSchema> {
  const p: RecurringPlan = r.plan;
  return {
    id: p.id,
    campaignId: p.campaignId,
    campaignTitle: r.campaignTitle,
    amount: p.amount,
    currency: p.currency,
    interval: p.interval,
    status: p.status,
    createdAt: iso(p.createdAt)!,
    canceledAt: iso(p.canceledAt),
    canceledBy: p.canceledBy ?? null,
    donationCount: r.donationCount,
    totalCents: r.totalCents,
  };
}
