import { z } from "zod";
import { DONOR_SORTS } from "@/db/queries/donors";
import type { Donor } from "@/db/schema";
import { iso, pageQuery } from "./common";
import { donationSchema, searchParam } from "./donations";
import { recurringPlanSchema } from "./recurring-plans";

export const DONOR_LIST_DEFAULT_LIMIT = 25;
/** How many of a donor's donations GET /api/donors/:id includes (newest first). */
export const DONOR_DETAIL_DONATIONS = 100;

/** The search and order shared by the donors list and its CSV export. */
const donorOrderFields = {
  q: searchParam.optional(),
  sort: z
    .enum(DONOR_SORTS)
    .default("total")
    .meta({
      description:
        "`total` (totalGivenCents), `lastGift` (lastDonationAt), `name` (last name, then first name, then email; " +
        "case-insensitive) or `createdAt`. Donors without a gift (lastGift) or a name (name) come last either way; " +
        "ties are broken by ID.",
    }),
  order: z.enum(["asc", "desc"]).default("desc"),
};

export const listDonorsQuery = z.object({ ...pageQuery, ...donorOrderFields });
export const exportDonorsQuery = z.object(donorOrderFields);

export const donorSchema = z
  .object({
    id: z.string(),
    orgId: z.string(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    totalGivenCents: z.number().int().meta({ description: "Sum of the donor's SUCCEEDED donations." }),
    donationCount: z.number().int().meta({ description: "How many of the donor's donations SUCCEEDED." }),
    firstDonationAt: z.string().nullable(),
    lastDonationAt: z.string().nullable(),
    erasedAt: z
      .string()
      .nullable()
      .meta({ description: "When the donor's personal data was erased: `email` is then a placeholder and the names null; totals stay." }),
    createdAt: z.string(),
  })
  .meta({ id: "Donor" });

export const donorDonationSchema = donationSchema.extend({ campaignTitle: z.string() }).meta({ id: "DonorDonation" });

export const donorDetailSchema = donorSchema
  .extend({
    donations: z
      .array(donorDonationSchema)
      .meta({ description: `The donor's newest ${DONOR_DETAIL_DONATIONS} donations, any status, newest first.` }),
    recurringPlans: z.array(recurringPlanSchema).meta({ description: "The donor's recurring plans, newest first." }),
  })
  .meta({ id: "DonorDetail" });

export type DonorView = z.output<typeof donorSchema>;

export function serializeDonor(d: Donor): DonorView {
  return {
    id: d.id,
    orgId: d.orgId,
    email: d.email,
    firstName: d.firstName,
    lastName: d.lastName,
    totalGivenCents: d.totalGivenCents,
    donationCount: d.donationCount,
    firstDonationAt: iso(d.firstDonationAt),
    lastDonationAt: iso(d.lastDonationAt),
    erasedAt: iso(d.erasedAt),
    createdAt: iso(d.createdAt)!,
  };
}
