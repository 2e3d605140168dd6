import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { inArray } from "drizzle-orm";
import type { Db } from "@/db";
import { findOrgCampaign } from "@/db/queries/gifts";
import { donations, recurringPlans, type Organization } from "@/db/schema";
import type { RecurringInterval } from "@/lib/recurring-intervals";
import { conflict, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { ActiveSubscription, PaymentProcessor } from "@/lib/processor/types";
import { findOrCreateDonor } from "@/lib/services/donations/upsert-donor";

export type AdoptionSkip = { subscriptionId: string; reason: "no_email" | "currency_not_accepted" | "interval_not_supported" };
export type AdoptionResult = { adopted: number; alreadyKnown: number; skipped: AdoptionSkip[]; planIds: string[] };

/** A processor's billing period as one of our plans' intervals; undefined for periods we don't offer. */
function intervalOf(sub: ActiveSubscription): RecurringInterval | undefined {
  const key = `${sub.interval}:${sub.intervalCount}`;
  return ({ "week:1": "WEEK", "month:1": "MONTH", "month:3": "QUARTER", "year:1": "YEAR" } as const)[key as "week:1"];
}

/**
 * Adopts the active subscriptions of the organization's connected account that no plan of ours
 * knows yet: for each, the donor (matched by email or created, `source: IMPORT`), an ACTIVE
 * recurring plan carrying the subscription's ID, and the plan's anchor gift (its first donation,
 * VOIDED and counting nowhere: the payments before adoption were made elsewhere). Renewals then
 * arrive through `invoice.payment_succeeded` like any plan's, copied from that anchor. Each
 * subscription commits on its own; the unique subscription index keeps a concurrent adoption
 * from creating a plan twice. Nothing is changed at the processor: donors keep their cards.
 */
export async function adoptSubscriptions(
  db: Db,
  processor: PaymentProcessor,
  org: Organization,
  input: { campaignId: string },
  audit: AuditContext,
): Promise<AdoptionResult> {
  if (!org.processorAccountId) throw conflict("conflict", "Connect the payout account before adopting its subscriptions");
  const campaign = await findOrgCampaign(db, org.id, input.campaignId);
  if (!campaign) throw notFound("campaign_not_found", "Campaign not found");
  const result: AdoptionResult = { adopted: 0, alreadyKnown: 0, skipped: [], planIds: [] };
  let page: ActiveSubscription[] = [];
  const flush = async () => {
    const known = new Set(
      page.length === 0
        ? []
        : (
            await db
              .select({ id: recurringPlans.subscriptionId })
              .from(recurringPlans)
              .where(
                inArray(
                  recurringPlans.subscriptionId,
                  page.map((s) => s.id),
                ),
              )
          ).map((r) => r.id),
    );
    for (const sub of page) {
      if (known.has(sub.id)) {
        result.alreadyKnown++;
        continue;
      }
      const interval = intervalOf(sub);
      const skip = !sub.customerEmail
        ? "no_email"
        : sub.currency.toLowerCase() !== org.currency
          ? "currency_not_accepted"
          : !interval
            ? "interval_not_supported"
            : null;
      if (skip) {
        result.skipped.push({ subscriptionId: sub.id, reason: skip });
        continue;
      }
      const planId = await adoptOne(db, org, campaign.id, sub, interval!);
      if (planId) {
        result.adopted++;
        result.planIds.push(planId);
      } else result.alreadyKnown++;
    }
    page = [];
  };
  for await (const sub of processor.listActiveSubscriptions({ accountId: org.processorAccountId })) {
    page.push(sub);
    if (page.length >= 100) await flush();
  }
  await flush();
  // One entry for the run, after it: each plan commits in its own transaction, so a run stopped
  // halfway leaves its plans and no entry, and running it again adopts the rest and records it.
  await recordAudit(db, audit, {
    orgId: org.id,
    action: "subscriptions.adopted",
    target: { type: "organization", id: org.id },
    data: { campaignId: campaign.id, adopted: result.adopted, alreadyKnown: result.alreadyKnown, skipped: result.skipped.length },
  });
  return result;
}

async function adoptOne(
  db: Db,
  org: Organization,
  campaignId: string,
  sub: ActiveSubscription,
  interval: RecurringInterval,
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [firstName, ...rest] = (sub.customerName ?? "").trim().split(/\s+/);
    const names = { first: firstName || null, last: rest.join(" ") || null };
    const donor = await findOrCreateDonor(tx, org.id, sub.customerEmail!, names.first, names.last, "IMPORT");
    const [plan] = await tx
      .insert(recurringPlans)
      .values({
        id: newId("rp"),
        orgId: org.id,
        campaignId,
        donorId: donor.id,
        subscriptionId: sub.id,
        amount: sub.amountCents,
        currency: org.currency,
        interval,
        status: "ACTIVE",
        createdAt: sub.startedAt,
      })
      .onConflictDoNothing()
      .returning({ id: recurringPlans.id });
    if (!plan) return null;
    await tx.insert(donations).values({
      id: newId("don"),
      orgId: org.id,
      campaignId,
      donorId: donor.id,
      amount: sub.amountCents,
      currency: org.currency,
      status: "VOIDED",
      email: sub.customerEmail!,
      firstName: names.first,
      lastName: names.last,
      recurringInterval: interval,
      recurringPlanId: plan.id,
      subscriptionId: sub.id,
      source: "IMPORT",
      method: "CARD",
      voidReason: "Adopted subscription: its payments before the adoption were made elsewhere",
      voidedAt: new Date(),
    });
    return plan.id;
  });
}
