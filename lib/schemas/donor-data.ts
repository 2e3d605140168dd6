import { z } from "zod";
import type { donorRequests } from "@/db/schema";
import { iso } from "./common";
import { donationSchema, RECURRING_INTERVALS } from "./donations";
import { donorSchema } from "./donors";
import { RECURRING_PLAN_STATUSES, recurringPlanSchema } from "./recurring-plans";

export const DONOR_REQUEST_KINDS = ["EXPORT", "ERASURE"] as const;
export const DONOR_REQUEST_STATUSES = ["PENDING", "COMPLETED", "REJECTED"] as const;

type DonorRequestRow = typeof donorRequests.$inferSelect;

export const donorParams = z.object({ idOrSlug: z.string().min(1).max(100), id: z.string().min(1).max(100) });
export const donorRequestParams = donorParams;

/** A donor's own request, as the donor sees it in their export. */
export const ownDonorRequestSchema = z
  .object({
    id: z.string(),
    kind: z.enum(DONOR_REQUEST_KINDS),
    status: z.enum(DONOR_REQUEST_STATUSES),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .meta({ id: "OwnDonorRequest" });

/** A donor's request as staff see it: who asked, and who decided. */
export const donorRequestSchema = ownDonorRequestSchema
  .extend({
    orgId: z.string(),
    donorId: z.string(),
    donorEmail: z.string().nullable().meta({ description: "The donor's email; null once the donor is erased." }),
    donorName: z.string().nullable(),
    decidedBy: z.string().nullable().meta({ description: "The user ID of the staff member who approved or rejected it." }),
  })
  .meta({ id: "DonorRequest" });

export type DonorRequestView = z.output<typeof donorRequestSchema>;

export const serializeOwnDonorRequest = (r: DonorRequestRow) => ({
  id: r.id,
  kind: r.kind,
  status: r.status,
  createdAt: iso(r.createdAt)!,
  decidedAt: iso(r.decidedAt),
});

export function serializeDonorRequest(
  r: DonorRequestRow,
  donor: { email: string | null; firstName: string | null; lastName: string | null; erasedAt: Date | null },
): DonorRequestView {
  const name = [donor.firstName, donor.lastName].filter(Boolean).join(" ").trim();
  return {
    ...serializeOwnDonorRequest(r),
    orgId: r.orgId,
    donorId: r.donorId,
    donorEmail: donor.erasedAt ? null : donor.email,
    donorName: name || null,
    decidedBy: r.decidedBy,
  };
}

export const donorRequestListSchema = z.object({ data: z.array(donorRequestSchema) }).meta({ id: "DonorRequestList" });

const exportedEmail = z
  .object({
    type: z.string().meta({ description: "`email.<template>`: `email.receipt`, `email.refund-confirmation`, …" }),
    subject: z.string().nullable().meta({ description: "The subject line; null when it can no longer be rebuilt." }),
    status: z.enum(["PENDING", "SENT", "FAILED"]),
    queuedAt: z.string(),
    sentAt: z.string().nullable(),
  })
  .meta({ id: "DonorExportEmail" });

const exportedDonation = donationSchema.extend({ campaignTitle: z.string() });

/** Everything the organization holds about one donor (`GET /api/orgs/:idOrSlug/donors/:id/export`). */
export const donorDataExportSchema = z
  .object({
    exportedAt: z.string(),
    organization: z.object({ id: z.string(), name: z.string() }),
    donor: donorSchema,
    donations: z.array(exportedDonation).meta({ description: "Every donation, any status, newest first." }),
    recurringPlans: z.array(recurringPlanSchema),
    emails: z.array(exportedEmail).meta({ description: "Emails sent (or queued) to the donor's address, newest first." }),
    requests: z.array(ownDonorRequestSchema).meta({ description: "The donor's own export and erasure requests." }),
  })
  .meta({ id: "DonorDataExport" });

export type DonorDataExport = z.output<typeof donorDataExportSchema>;

/** The donor's own copy: the same records without the organization's processor and internal fields. */
export const ownDataExportSchema = z
  .object({
    exportedAt: z.string(),
    organization: z.object({ name: z.string() }),
    donor: donorSchema.pick({ email: true, firstName: true, lastName: true, totalGivenCents: true, donationCount: true, createdAt: true }),
    donations: z.array(
      donationSchema
        .pick({
          id: true,
          amount: true,
          currency: true,
          status: true,
          email: true,
          firstName: true,
          lastName: true,
          anonymous: true,
          message: true,
          dedication: true,
          recurringInterval: true,
          isRenewal: true,
          tickets: true,
          coverFees: true,
          createdAt: true,
          succeededAt: true,
        })
        .extend({ campaignTitle: z.string() }),
    ),
    recurringPlans: z.array(
      z.object({
        id: z.string(),
        campaignTitle: z.string(),
        amount: z.number().int(),
        currency: z.string(),
        interval: z.enum(RECURRING_INTERVALS),
        status: z.enum(RECURRING_PLAN_STATUSES),
        createdAt: z.string(),
        canceledAt: z.string().nullable(),
      }),
    ),
    emails: z.array(exportedEmail),
    requests: z.array(ownDonorRequestSchema),
  })
  .meta({ id: "OwnDataExport" });

export type OwnDataExport = z.output<typeof ownDataExportSchema>;

/** `POST /api/donor/orgs/:orgSlug/erasure`: done now, or waiting for the organization's approval. */
export const erasureRequestResultSchema = z
  .object({
    status: z.enum(["ERASED", "PENDING"]),
    requestId: z.string().nullable().meta({ description: "The pending request's ID (null when erased at once)." }),
  })
  .meta({ id: "ErasureRequestResult" });

/** What erasing a donor answers: the donor as it now stands (the same on a repeat). */
export const erasedDonorSchema = donorSchema;
