import { desc, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import { listEmailsTo, listRequestsOfDonor } from "@/db/queries/donor-requests";
import { listRecurringPlansOfDonor } from "@/db/queries/recurring-plans";
import { campaigns, donations, donorRequests, type Donor, type Organization } from "@/db/schema";
import { isErasedEmail } from "@/lib/donor-erasure";
import { emailSubject } from "@/lib/email/render";
import type { EmailMessage } from "@/lib/email/types";
import { newId } from "@/lib/ids";
import { iso } from "@/lib/schemas/common";
import { serializeOwnDonorRequest, type DonorDataExport, type OwnDataExport } from "@/lib/schemas/donor-data";
import { serializeDonation } from "@/lib/schemas/donations";
import { serializeDonor } from "@/lib/schemas/donors";
import { serializeRecurringPlan } from "@/lib/schemas/recurring-plans";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/** The subject an outbox email was sent with, when its payload still holds what makes one. */
function subjectOf(payload: Record<string, unknown>): string | null {
  try {
    return emailSubject(payload as Pick<EmailMessage, "template" | "props">);
  } catch {
    return null;
  }
}

/** Everything the organization holds about the donor, as staff see it. */
async function collect(db: DbOrTx, org: Organization, donor: Donor): Promise<DonorDataExport> {
  const [gifts, plans, emails, requests] = await Promise.all([
    db
      .select({ donation: donations, campaignTitle: campaigns.title })
      .from(donations)
      .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
      .where(eq(donations.donorId, donor.id))
      .orderBy(desc(donations.createdAt), desc(donations.id)),
    listRecurringPlansOfDonor(db, donor.id),
    // An erased donor's placeholder never received anything (their emails were scrubbed), nor did a donor without email.
    !donor.email || isErasedEmail(donor.email) ? Promise.resolve([]) : listEmailsTo(db, org.id, donor.email),
    listRequestsOfDonor(db, donor.id),
  ]);
  return {
    exportedAt: new Date().toISOString(),
    organization: { id: org.id, name: org.name },
    donor: serializeDonor(donor),
    donations: gifts.map((g) => ({ ...serializeDonation(g.donation), campaignTitle: g.campaignTitle })),
    recurringPlans: plans.map(serializeRecurringPlan),
    emails: emails.map((e) => ({
      type: `email.${String(e.payload.template ?? "unknown")}`,
      subject: subjectOf(e.payload),
      status: e.status,
      queuedAt: iso(e.createdAt)!,
      sentAt: iso(e.sentAt),
    })),
    requests: requests.map(serializeOwnDonorRequest),
  };
}

/**
 * One donor's data for staff (`GET /api/orgs/:idOrSlug/donors/:id/export`): profile, every
 * donation, recurring plans, the emails sent to them (type, subject, status, times: never a
 * body, a sign-in link or other props) and their data requests. Audit-logged as `donor.exported`.
 */
export async function exportDonorData(db: Db, org: Organization, donor: Donor, audit: AuditContext): Promise<DonorDataExport> {
  const data = await collect(db, org, donor);
  await recordAudit(db, audit, {
    orgId: org.id,
    action: "donor.exported",
    target: { type: "donor", id: donor.id },
    data: { donations: data.donations.length, recurringPlans: data.recurringPlans.length, emails: data.emails.length },
  });
  return data;
}

/**
 * The donor's own copy (`POST /api/donor/orgs/:orgSlug/data-export`): the same records without
 * the organization's internal fields (processor IDs, fees, failure details, staff decisions).
 * The request is kept as a completed EXPORT request, so the donor's later exports list it.
 */
export async function exportOwnData(db: Db, org: Organization, donor: Donor): Promise<OwnDataExport> {
  await db.insert(donorRequests).values({
    id: newId("dreq"),
    orgId: org.id,
    donorId: donor.id,
    kind: "EXPORT",
    status: "COMPLETED",
    decidedAt: new Date(),
  });
  const all = await collect(db, org, donor);
  return {
    exportedAt: all.exportedAt,
    organization: { name: org.name },
    donor: {
      email: all.donor.email,
      firstName: all.donor.firstName,
      lastName: all.donor.lastName,
      totalGivenCents: all.donor.totalGivenCents,
      donationCount: all.donor.donationCount,
      createdAt: all.donor.createdAt,
    },
    donations: all.donations.map((d) => ({
      id: d.id,
      campaignTitle: d.campaignTitle,
      amount: d.amount,
      currency: d.currency,
      status: d.status,
      email: d.email,
      firstName: d.firstName,
      lastName: d.lastName,
      anonymous: d.anonymous,
      message: d.message,
      dedication: d.dedication,
      recurringInterval: d.recurringInterval,
      isRenewal: d.isRenewal,
      tickets: d.tickets,
      coverFees: d.coverFees,
      createdAt: d.createdAt,
      succeededAt: d.succeededAt,
    })),
    recurringPlans: all.recurringPlans.map((p) => ({
      id: p.id,
      campaignTitle: p.campaignTitle,
      amount: p.amount,
      currency: p.currency,
      interval: p.interval,
      status: p.status,
      createdAt: p.createdAt,
      canceledAt: p.canceledAt,
    })),
    emails: all.emails,
    requests: all.requests,
  };
}

/** `Content-Disposition` filename of an export: `donor-<id>-<YYYY-MM-DD>.json` (IDs are URL-safe). */
export function donorExportFilename(donorId: string, now = new Date()): string {
  return `donor-${donorId.replace(/[^A-Za-z0-9_-]/g, "")}-${now.toISOString().slice(0, 10)}.json`;
}

/** A JSON file answer (downloaded, never cached). */
export function jsonDownload(data: unknown, filename: string): Response {
  return new Response(JSON.stringify(data, null, 2), {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
}
