import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/db";
import { statement, variants } from "@/db/statements";
import { campaignMilestones, donors, organizations, type Campaign, type Donation, type Organization } from "@/db/schema";
import { enqueueEmails, type QueuedEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import { getEnv } from "@/lib/env";
import { ticketsOfDonation } from "@/lib/services/events/tickets";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { deductibleCents } from "@/lib/schemas/donations";

// What a gift that starts counting tells people: milestone alerts to the organization, and the
// receipt, admin notification and tribute emails, queued in the outbox of the move's transaction.
// Built once (db/statements.ts).

const MILESTONES = [25, 50, 75, 100] as const;

const ph = sql.placeholder;

const organizationById = statement(organizations, (db) =>
  db
    .select()
    .from(organizations)
    .where(eq(organizations.id, ph("id"))),
);

const donorLocaleOf = statement(donors, (db) =>
  db
    .select({ locale: donors.locale })
    .from(donors)
    .where(eq(donors.id, ph("id"))),
);

/** A campaign's milestones reached, `count` of them (1–4), inserted unless already alerted. */
const insertMilestones = variants((count: number) =>
  statement(campaignMilestones, (db) =>
    db
      .insert(campaignMilestones)
      .values(Array.from({ length: count }, (_, i) => ({ campaignId: ph("campaignId"), thresholdPct: ph(`pct${i}`) })))
      .onConflictDoNothing()
      .returning({ thresholdPct: campaignMilestones.thresholdPct }),
  ),
);

const first = async <T>(rows: Promise<T[]>): Promise<T | undefined> => (await rows)[0];

/** The organization whose notifications a success sends. */
export const organizationOf = (tx: Tx, id: string): Promise<Organization | undefined> => first(organizationById(tx, { id }));

/** The language the donor chose last, for a gift made without one. */
export const donorLocale = async (tx: Tx, id: string): Promise<string | null> => (await first(donorLocaleOf(tx, { id })))?.locale ?? null;

/** Each goal threshold alerts once per campaign: the milestone row's primary key decides. */
export async function queueMilestones(tx: Tx, org: Organization, campaign: Campaign) {
  const goal = campaign.goalAmountCents;
  if (!goal || !org.notificationEmail) return;
  const reached = MILESTONES.filter((pct) => campaign.raisedAmountCents * 100 >= pct * goal);
  if (reached.length === 0) return;
  const fresh = await insertMilestones(reached.length)(tx, {
    campaignId: campaign.id,
    ...Object.fromEntries(reached.map((pct, i) => [`pct${i}`, pct])),
  });
  const to = org.notificationEmail;
  await enqueueEmails(
    tx,
    fresh.map(({ thresholdPct }) => ({
      template: "milestone",
      to,
      orgId: org.id,
      dedupeKey: `milestone:${campaign.id}:${thresholdPct}`,
      props: {
        orgName: org.name,
        campaignTitle: campaign.title,
        thresholdPct: thresholdPct as (typeof MILESTONES)[number],
        raisedAmountCents: campaign.raisedAmountCents,
        goalAmountCents: goal,
        currency: org.currency,
        dashboardUrl: `${getEnv().appUrl}/dashboard/${org.slug}/campaigns/${campaign.id}`,
      },
    })),
  );
}

/** The order's tickets (made in this transaction, just before): what the receipt's QR codes carry. */
async function ticketCodesOf(tx: Tx, donationId: string) {
  const rows = await ticketsOfDonation(tx, donationId);
  return rows.map((r) => ({ code: r.code, attendeeName: r.attendeeName, tierName: r.tierName }));
}

function fullName(d: Pick<Donation, "firstName" | "lastName">): string | null {
  return [d.firstName, d.lastName].filter(Boolean).join(" ") || null;
}

/**
 * Receipt to the donor, notification to the organization, tribute to the honoree's contact: once
 * each. The receipt and the tribute are written in the gift's language (a renewal has its plan's
 * first gift's), else the donor's, else the organization's default; the notification in English.
 */
export async function queueSuccessEmails(tx: Tx, org: Organization, campaign: Campaign, d: Donation, donorLocale: string | null) {
  const appUrl = getEnv().appUrl;
  const locale = emailLocale(d.locale, donorLocale, org.defaultLocale);
  const campaignUrl = `${donateBaseUrl(org)}/donate/${campaign.slug}`;
  const emails: QueuedEmail[] = [];
  // An offline gift from a donor without email has no receipt email to send (the PDF still exists).
  if (d.email)
    emails.push({
      template: "receipt",
      to: d.email,
      orgId: org.id,
      dedupeKey: `receipt:${d.id}`,
      props: {
        donorFirstName: d.firstName,
        donorName: fullName(d),
        donorEmail: d.email,
        amountCents: d.amount + d.feeCents,
        currency: d.currency,
        campaignTitle: campaign.title,
        orgName: org.name,
        orgLegalName: org.legalName,
        orgTaxId: org.taxId,
        date: (d.succeededAt ?? new Date()).toISOString(),
        donationId: d.id,
        dedication: d.dedication ? { type: d.dedication.type, honoreeName: d.dedication.honoreeName, message: d.dedication.message } : null,
        recurring: d.recurringInterval ? { interval: d.recurringInterval, amountCents: d.amount + d.feeCents, currency: d.currency } : null,
        isRenewal: d.isRenewal,
        tickets: d.tickets,
        ...(d.ticketOrder ? { ticketCodes: await ticketCodesOf(tx, d.id) } : {}),
        campaignUrl,
        accountUrl: `${donateBaseUrl(org)}/account`,
        receipt: {
          profile: org.receiptProfile,
          number: d.receiptNumber,
          advantageCents: d.advantageCents,
          deductibleCents: deductibleCents(d),
          giftAid: d.giftAid,
        },
        locale,
        timeZone: org.timeZone,
      },
    });
  if (org.notificationEmail) {
    emails.push({
      template: "admin-notification",
      to: org.notificationEmail,
      orgId: org.id,
      dedupeKey: `admin:${d.id}`,
      props: {
        orgName: org.name,
        donorName: fullName(d),
        donorEmail: d.email,
        anonymous: d.anonymous,
        amountCents: d.amount + d.feeCents,
        feeCents: d.feeCents,
        currency: d.currency,
        campaignTitle: campaign.title,
        message: d.message,
        donationId: d.id,
        isRenewal: d.isRenewal,
        recurringInterval: d.recurringInterval,
        dashboardUrl: `${appUrl}/dashboard/${org.slug}/donations/${d.id}`,
      },
    });
  }
  const notify = d.dedication?.notifyEmail;
  if (d.dedication && notify) {
    emails.push({
      template: "tribute",
      to: notify,
      orgId: org.id,
      dedupeKey: `tribute:${d.id}`,
      props: {
        honoreeName: d.dedication.honoreeName,
        type: d.dedication.type,
        donorName: fullName(d),
        anonymous: d.anonymous,
        message: d.dedication.message,
        campaignTitle: campaign.title,
        orgName: org.name,
        campaignUrl,
        locale,
      },
    });
  }
  await enqueueEmails(tx, emails);
}
