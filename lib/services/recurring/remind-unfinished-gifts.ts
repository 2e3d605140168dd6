import { aliasedTable, and, eq, gte, inArray, isNull, lte, notExists, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { campaigns, donations, organizations, reminderOptOuts } from "@/db/schema";
import { enqueueEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import { getEnv } from "@/lib/env";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { unsubscribeToken } from "./reminder-opt-out";

/** A later gift of the same donor to the same campaign. */
const finished = aliasedTable(donations, "finished");

/** Gifts reminded per worker pass. */
const BATCH = 50;
/** Gifts older than this when the worker first sees them are not reminded (a backlog after downtime, or before the feature). */
const MAX_AGE_HOURS = 72;

/** The donate page with the same campaign, amount and frequency: the reminder's link. */
export function reopenGiftUrl(base: string, campaignSlug: string, gift: { amount: number; recurringInterval: string | null }): string {
  const query = new URLSearchParams({ amount: String(gift.amount) });
  if (gift.recurringInterval) query.set("frequency", gift.recurringInterval);
  return `${base}/donate/${encodeURIComponent(campaignSlug)}?${query}`;
}

/**
 * One reminder per unfinished gift: a donation whose donor ticked "Remind me if I don't finish",
 * unpaid (PENDING or FAILED) ABANDONED_REMINDER_MINUTES after it started, whose donor has made no
 * successful gift to the campaign since and hasn't unsubscribed from the organization's reminders.
 * Each is marked and its email queued in one transaction, under a row lock skipped by other
 * workers, so no gift is reminded twice; a gift that succeeded meanwhile is never reminded.
 */
export async function remindUnfinishedGifts(db: Db, options: { orgIds?: string[] } = {}): Promise<number> {
  const minutes = getEnv().ABANDONED_REMINDER_MINUTES;
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ donation: donations, org: organizations, campaignSlug: campaigns.slug, campaignTitle: campaigns.title })
      .from(donations)
      .innerJoin(organizations, eq(organizations.id, donations.orgId))
      .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
      .where(
        and(
          eq(donations.remindIfUnfinished, true),
          isNull(donations.unfinishedReminderAt),
          sql`${donations.status} in ('PENDING', 'FAILED')`,
          lte(donations.createdAt, sql`now() - make_interval(mins => ${minutes})`),
          gte(donations.createdAt, sql`now() - make_interval(hours => ${MAX_AGE_HOURS})`),
          options.orgIds ? inArray(donations.orgId, options.orgIds) : undefined,
          // Never after the donor finished a gift to the campaign since, or asked for no reminders.
          notExists(
            tx
              .select({ id: finished.id })
              .from(finished)
              .where(
                and(
                  eq(finished.campaignId, donations.campaignId),
                  eq(finished.donorId, donations.donorId),
                  inArray(finished.status, ["SUCCEEDED", "DISPUTED", "REFUNDED"]),
                  gte(finished.createdAt, donations.createdAt),
                ),
              ),
          ),
          notExists(
            tx
              .select({ email: reminderOptOuts.email })
              .from(reminderOptOuts)
              .where(and(eq(reminderOptOuts.orgId, donations.orgId), eq(reminderOptOuts.email, sql`lower(${donations.email})`))),
          ),
        ),
      )
      .orderBy(donations.createdAt)
      .limit(BATCH)
      .for("update", { of: donations, skipLocked: true });
    let sent = 0;
    for (const { donation: d, org, campaignSlug, campaignTitle } of due) {
      await tx
        .update(donations)
        .set({ unfinishedReminderAt: sql`now()` })
        .where(eq(donations.id, d.id));
      // Online gifts always have an email; only an offline gift's donor may have none.
      if (!d.email) continue;
      const to = d.email;
      const base = donateBaseUrl(org);
      const queued = await enqueueEmail(tx, {
        template: "unfinished-gift",
        to,
        orgId: org.id,
        dedupeKey: `unfinished-gift:${d.id}`,
        props: {
          locale: emailLocale(d.locale, org.defaultLocale),
          orgName: org.name,
          donorFirstName: d.firstName,
          donorEmail: to,
          amountCents: d.amount,
          currency: d.currency,
          interval: d.recurringInterval,
          campaignTitle,
          url: reopenGiftUrl(base, campaignSlug, d),
          unsubscribeUrl: `${base}/reminders/unsubscribe?token=${encodeURIComponent(unsubscribeToken(org.id, to))}`,
        },
      });
      if (queued) sent++;
    }
    return sent;
  });
}
