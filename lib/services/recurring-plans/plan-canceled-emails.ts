import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { campaigns, donations, donors, organizations, type RecurringPlan } from "@/db/schema";
import { enqueueEmails, type QueuedEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import type { PlanCanceledProps } from "@/lib/email/types";
import { getEnv } from "@/lib/env";
import { donateBaseUrl } from "@/lib/schemas/organizations";

/**
 * A donor's cancellation from their account: the confirmation to the donor and, when the
 * organization has a notification address, the note to it. Queued in the transaction that ends
 * the plan; the dedupe keys (`plan-canceled:<planId>`, `plan-canceled-notice:<planId>`) keep
 * them to one each whatever redelivers the processor's event. The donor's is written in the
 * language of the plan's first gift (else the donor's, else the organization's default); the
 * organization's stays English.
 */
export async function queuePlanCanceledEmails(tx: Tx, plan: RecurringPlan): Promise<number> {
  const [row] = await tx
    .select({
      org: organizations,
      campaignTitle: campaigns.title,
      donor: donors,
      firstGiftLocale: sql<string | null>`(${tx
        .select({ locale: donations.locale })
        .from(donations)
        .where(and(eq(donations.recurringPlanId, plan.id), eq(donations.isRenewal, false)))
        .limit(1)})`,
    })
    .from(organizations)
    .innerJoin(campaigns, eq(campaigns.id, plan.campaignId))
    .innerJoin(donors, eq(donors.id, plan.donorId))
    .where(eq(organizations.id, plan.orgId))
    .limit(1);
  if (!row) return 0;
  const { org, donor } = row;
  const props: Omit<PlanCanceledProps, "url"> = {
    orgName: org.name,
    donorFirstName: donor.firstName,
    donorName: [donor.firstName, donor.lastName].filter(Boolean).join(" ") || null,
    donorEmail: donor.email,
    amountCents: plan.amount,
    currency: plan.currency,
    interval: plan.interval,
    campaignTitle: row.campaignTitle,
    planId: plan.id,
    canceledAt: (plan.canceledAt ?? new Date()).toISOString(),
  };
  const emails: QueuedEmail[] = [];
  // A donor without email (merged from an offline record) is not told; staff still are.
  if (donor.email) {
    emails.push({
      template: "plan-canceled",
      to: donor.email,
      orgId: org.id,
      dedupeKey: `plan-canceled:${plan.id}`,
      props: {
        ...props,
        url: `${donateBaseUrl(org)}/account`,
        locale: emailLocale(row.firstGiftLocale, donor.locale, org.defaultLocale),
        timeZone: org.timeZone,
      },
    });
  }
  if (org.notificationEmail) {
    emails.push({
      template: "plan-canceled-notice",
      to: org.notificationEmail,
      orgId: org.id,
      dedupeKey: `plan-canceled-notice:${plan.id}`,
      props: { ...props, url: `${getEnv().appUrl}/dashboard/${org.slug}/recurring` },
    });
  }
  return enqueueEmails(tx, emails);
}
