import { eq } from "drizzle-orm";
import type { Tx } from "@/db";
import { donors, type Campaign, type Donation, type Organization } from "@/db/schema";
import { enqueueEmails, type QueuedEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import { donateBaseUrl } from "@/lib/schemas/organizations";

/**
 * What a gift that starts counting on a supporter's page tells its supporter (unless they opted
 * out): an email for the gift (the donor's name and message, none when anonymous) and, when this
 * gift carries the page over its goal, one saying so. Written in the supporter's language (their
 * donor record's, else the organization's default); queued in the move's transaction, once each
 * (the gift's ID, and the page's, key them).
 */
export async function queueFundraiserGiftEmails(tx: Tx, org: Organization, page: Campaign, gift: Donation): Promise<void> {
  if (!page.fundraiserDonorId || !page.fundraiserEmails) return;
  const [supporter] = await tx
    .select({ email: donors.email, locale: donors.locale, erasedAt: donors.erasedAt })
    .from(donors)
    .where(eq(donors.id, page.fundraiserDonorId))
    .limit(1);
  if (!supporter?.email || supporter.erasedAt) return;
  const to = supporter.email;
  const locale = emailLocale(null, supporter.locale, org.defaultLocale);
  const base = donateBaseUrl(org);
  const pageUrl = `${base}/donate/${page.slug}`;
  const accountUrl = `${base}/account?lang=${locale}`;
  const firstName = page.fundraiserFirstName ?? "";
  const donorName = gift.anonymous ? null : [gift.firstName, gift.lastName].filter(Boolean).join(" ") || null;
  const emails: QueuedEmail[] = [
    {
      template: "fundraiser-gift",
      to,
      orgId: org.id,
      dedupeKey: `fundraiser-gift:${gift.id}`,
      props: {
        locale,
        orgName: org.name,
        pageTitle: page.title,
        firstName,
        donorName,
        message: gift.anonymous ? null : gift.message,
        amountCents: gift.amount,
        currency: gift.currency,
        pageUrl,
        accountUrl,
      },
    },
  ];
  const goal = page.goalAmountCents;
  // `page` is the row its UPDATE answered: this gift is in it, under the page's lock.
  if (goal && page.raisedAmountCents >= goal && page.raisedAmountCents - gift.amount < goal) {
    emails.push({
      template: "fundraiser-goal",
      to,
      orgId: org.id,
      dedupeKey: `fundraiser-goal:${page.id}`,
      props: {
        locale,
        orgName: org.name,
        pageTitle: page.title,
        firstName,
        raisedAmountCents: page.raisedAmountCents,
        goalAmountCents: goal,
        currency: gift.currency,
        pageUrl,
        accountUrl,
      },
    });
  }
  await enqueueEmails(tx, emails);
}
