import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { campaigns, donations, donors, organizations, type RecurringPlan } from "@/db/schema";
import { enqueueEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import type { PlanPaymentIssueProps } from "@/lib/email/types";
import { donateBaseUrl } from "@/lib/schemas/organizations";

type Issue = Pick<PlanPaymentIssueProps, "kind" | "nextRetryAt" | "nextChargeAt" | "card">;

/**
 * Queues one email to a plan's donor about its payments (a failed renewal, the processor giving
 * up, a card expiring before the next charge), in the transaction of the change that causes it.
 * `dedupeKey` keeps it to one whatever redelivers the processor's events or reruns the worker.
 * Written in the language of the plan's first gift, else the donor's, else the organization's;
 * it links to the donor's account page, where they replace their card (or give again).
 */
export async function queuePlanPaymentEmail(tx: Tx, plan: RecurringPlan, issue: Issue, dedupeKey: string): Promise<boolean> {
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
  if (!row?.donor.email) return false;
  const { org, donor } = row;
  const to = row.donor.email;
  return enqueueEmail(tx, {
    template: "plan-payment-issue",
    to,
    orgId: org.id,
    dedupeKey,
    props: {
      ...issue,
      locale: emailLocale(row.firstGiftLocale, donor.locale, org.defaultLocale),
      timeZone: org.timeZone,
      orgName: org.name,
      donorFirstName: donor.firstName,
      donorName: [donor.firstName, donor.lastName].filter(Boolean).join(" ") || null,
      donorEmail: to,
      amountCents: plan.amount,
      currency: plan.currency,
      interval: plan.interval,
      campaignTitle: row.campaignTitle,
      planId: plan.id,
      url: `${donateBaseUrl(org)}/account#plans-title`,
    },
  });
}
