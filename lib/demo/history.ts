import { setImmediate as nextTurn } from "node:timers/promises";
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "@/db";
import { campaigns, donations, processedEvents, type Organization } from "@/db/schema";
import {
  chargeDisputeClosed,
  chargeDisputeCreated,
  chargeRefunded,
  customerSubscriptionDeleted,
  invoicePaymentSucceeded,
  paymentIntentSucceeded,
} from "@/lib/processor/event-factory";
import { createDonation } from "@/lib/services/donations/create-donation";
import { applyProcessorEvent } from "@/lib/services/processor/apply-processor-event";
import { getSandboxProcessor } from "@/lib/services/processor/get-processor";
import { planDemoHistory, type PlanStep } from "./history-plan";

/**
 * Plays the demo's planned year (history-plan.ts) through the services real payments go
 * through: each gift is started by createDonation and paid by the processor events Stripe would
 * send (built by the event factory, applied by applyProcessorEvent), and renewals, refunds, the
 * dispute and canceled plans are processor events too; so every aggregate (campaign totals,
 * matching, tickets, donor totals, the reports' daily totals) is kept by the same code as for
 * real gifts, and tests/helpers/invariants.ts holds.
 *
 * The services stamp `now()`. Each chunk of steps then moves what it made to the planned times
 * in one pass: donations (created, succeeded, updated), their timelines, recurring plans, donor
 * first/last gift times, webhook events, milestones; and recomputes the organization's
 * `campaign_daily_totals` from the donations, which the reports read.
 *
 * No email and no webhook leaves for this history. The organization has no webhook endpoint
 * while it is seeded, so no delivery is queued; the emails the services queue (receipts, the
 * organization's notifications, milestones, the refund and dispute notices) are kept, dated when
 * their gift was, and marked SENT in the transaction that queued them, so the worker never sees
 * them PENDING and the emails page shows the history a year of real gifts would have left.
 *
 * Exactly once, also across a crash or a second instance: each chunk is one transaction that
 * begins by taking its marker in `processed_events` (`demo-seed:<orgId>:<n>`), the table that
 * makes processor events exactly-once; a chunk already marked is skipped, and one being played
 * by another instance is waited for and then skipped. The IDs a later step needs (charges,
 * invoices, events) derive from the plan's keys, so a restart finds earlier gifts in the
 * database. The payments go through the sandbox processor whatever PAYMENTS_MODE says.
 */

/**
 * Steps per transaction. Fixed: the chunk markers count chunks, so a resumed seed must cut the
 * plan the same way. Short, because on PGlite (one connection) a request served meanwhile waits
 * for the chunk under way.
 */
const CHUNK = 10;

export const chunkMarker = (orgId: string, n: number) => `demo-seed:${orgId}:${n}`;

const tail = (orgId: string) => orgId.replace(/^org_/, "");
const chargeIdOf = (orgId: string, key: string) => `ch_demo_${tail(orgId)}_${key}`;
const invoiceIdOf = (orgId: string, key: string) => `in_demo_${tail(orgId)}_${key}`;
const eventIdOf = (orgId: string, key: string, what: string) => `evt_demo_${tail(orgId)}_${key}_${what}`;
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

type PaidGift = { id: string; paymentIntentId: string | null; subscriptionId: string | null; chargeCents: number; currency: string };

export type HistoryOptions = {
  /** The plan's volume (see planDemoHistory); 1 by default. */
  scale?: number;
  /** Called after each chunk commits (tests stop the seed here to play a crash). */
  afterChunk?: (n: number) => void | Promise<void>;
};

/** Plays the plan for `now` for the organization, skipping the chunks already played. Answers how many steps it played. */
export async function playDemoHistory(db: Db, org: Organization, now: Date, options: HistoryOptions = {}): Promise<number> {
  const steps = planDemoHistory(now, options.scale ?? 1);
  const campaignIds = new Map(
    (await db.select({ id: campaigns.id, slug: campaigns.slug }).from(campaigns).where(eq(campaigns.orgId, org.id))).map((c) => [
      c.slug,
      c.id,
    ]),
  );
  const paid = new Map<string, PaidGift>();
  const processor = getSandboxProcessor();
  let played = 0;

  for (let n = 0; n * CHUNK < steps.length; n++) {
    const chunk = steps.slice(n * CHUNK, (n + 1) * CHUNK);
    const startedAt = new Date();
    const ran = await db.transaction(async (tx) => {
      const [mark] = await tx
        .insert(processedEvents)
        .values({ id: chunkMarker(org.id, n), type: "demo_seed.chunk" })
        .onConflictDoNothing()
        .returning({ id: processedEvents.id });
      if (!mark) return false;
      // The services take the database and open their own transactions: inside this one they
      // become savepoints, so the whole chunk commits (with its marker) or none of it does.
      const db = tx as unknown as Db;
      const charges: { charge: string; at: Date }[] = [];
      const events: { id: string; at: Date }[] = [];
      const touched: { charge: string; at: Date }[] = [];
      const canceled: { subscription: string; at: Date }[] = [];

      /** A gift paid earlier: from this run, or from the database (a chunk committed before a restart). */
      const paidGift = async (key: string): Promise<PaidGift> => {
        const known = paid.get(key);
        if (known) return known;
        const [d] = await tx
          .select({
            id: donations.id,
            paymentIntentId: donations.paymentIntentId,
            subscriptionId: donations.subscriptionId,
            chargeCents: sql<number>`${donations.amount} + ${donations.feeCents}`.mapWith(Number),
            currency: donations.currency,
          })
          .from(donations)
          .where(and(eq(donations.orgId, org.id), eq(donations.chargeId, chargeIdOf(org.id, key))));
        if (!d) throw new Error(`demo seed: gift ${key} was not found`);
        paid.set(key, d);
        return d;
      };
      const apply = async (event: Parameters<typeof applyProcessorEvent>[1], at: Date) => {
        const outcome = await applyProcessorEvent(db, event, processor);
        if (outcome !== "applied") throw new Error(`demo seed: ${event.type} was ${outcome}`);
        events.push({ id: event.id, at });
      };
      const envelope = (key: string, what: string, at: Date) => ({
        eventId: eventIdOf(org.id, key, what),
        created: seconds(at),
        account: org.processorAccountId,
      });

      for (const step of chunk) {
        await playStep(step);
      }

      async function playStep(step: PlanStep) {
        switch (step.kind) {
          case "gift": {
            const campaignId = campaignIds.get(step.campaign);
            if (!campaignId) throw new Error(`demo seed: no campaign ${step.campaign}`);
            const created = await createDonation(
              db,
              processor,
              {
                campaignId,
                amount: step.amount,
                email: step.donor.email,
                firstName: step.donor.firstName,
                lastName: step.donor.lastName,
                anonymous: step.anonymous,
                message: step.message,
                dedication: null,
                recurringInterval: step.recurring,
                tickets: step.tickets,
                coverFees: step.coverFees,
              },
              { clientIp: null },
            );
            const d = created.donation;
            const chargeId = chargeIdOf(org.id, step.key);
            const event = created.subscriptionId
              ? invoicePaymentSucceeded({
                  ...envelope(step.key, "paid", step.at),
                  invoiceId: invoiceIdOf(org.id, step.key),
                  subscriptionId: created.subscriptionId,
                  billingReason: "subscription_create",
                  amountPaidCents: created.chargeAmountCents,
                  currency: d.currency,
                  paymentIntentId: d.paymentIntentId,
                  chargeId,
                })
              : paymentIntentSucceeded({
                  ...envelope(step.key, "paid", step.at),
                  paymentIntentId: d.paymentIntentId!,
                  amountCents: created.chargeAmountCents,
                  currency: d.currency,
                  metadata: { donationId: d.id, orgId: org.id, campaignId },
                  chargeId,
                  destination: org.processorAccountId,
                });
            await apply(event, step.at);
            paid.set(step.key, {
              id: d.id,
              paymentIntentId: d.paymentIntentId,
              subscriptionId: created.subscriptionId,
              chargeCents: created.chargeAmountCents,
              currency: d.currency,
            });
            charges.push({ charge: chargeId, at: step.at });
            return;
          }
          case "renewal": {
            const first = await paidGift(step.gift);
            const chargeId = chargeIdOf(org.id, step.key);
            await apply(
              invoicePaymentSucceeded({
                ...envelope(step.key, "paid", step.at),
                invoiceId: invoiceIdOf(org.id, step.key),
                subscriptionId: first.subscriptionId!,
                billingReason: "subscription_cycle",
                amountPaidCents: first.chargeCents,
                currency: first.currency,
                paymentIntentId: `pi_demo_${tail(org.id)}_${step.key}`,
                chargeId,
              }),
              step.at,
            );
            charges.push({ charge: chargeId, at: step.at });
            return;
          }
          case "refund": {
            const g = await paidGift(step.gift);
            await apply(
              chargeRefunded({
                ...envelope(step.gift, "refunded", step.at),
                chargeId: chargeIdOf(org.id, step.gift),
                paymentIntentId: g.paymentIntentId,
                amountCents: g.chargeCents,
                currency: g.currency,
              }),
              step.at,
            );
            touched.push({ charge: chargeIdOf(org.id, step.gift), at: step.at });
            return;
          }
          case "dispute.created":
          case "dispute.closed": {
            const g = await paidGift(step.gift);
            const dispute = {
              disputeId: `dp_demo_${tail(org.id)}_${step.gift}`,
              chargeId: chargeIdOf(org.id, step.gift),
              paymentIntentId: g.paymentIntentId,
              amountCents: g.chargeCents,
              currency: g.currency,
              reason: "fraudulent",
            };
            const event =
              step.kind === "dispute.created"
                ? chargeDisputeCreated({
                    ...envelope(step.gift, "dispute", step.at),
                    ...dispute,
                    dueBy: seconds(step.at) + 21 * 86_400,
                  })
                : chargeDisputeClosed({ ...envelope(step.gift, "dispute_closed", step.at), ...dispute, status: step.status });
            await apply(event, step.at);
            touched.push({ charge: dispute.chargeId, at: step.at });
            return;
          }
          case "plan.canceled": {
            const g = await paidGift(step.gift);
            await apply(
              customerSubscriptionDeleted({
                ...envelope(step.gift, "canceled", step.at),
                subscriptionId: g.subscriptionId!,
                canceledAt: seconds(step.at),
              }),
              step.at,
            );
            canceled.push({ subscription: g.subscriptionId!, at: step.at });
            return;
          }
          case "match.started":
            await tx
              .update(campaigns)
              .set({ matchingEnabled: true, matchingRatioPct: 100, matchingMaxCents: step.maxCents, updatedAt: step.at })
              .where(and(eq(campaigns.orgId, org.id), eq(campaigns.slug, "winter-meals")));
            return;
        }
      }

      await backdate(tx, org.id, { charges, events, touched, canceled, startedAt, end: chunk[chunk.length - 1].at });
      return true;
    });
    if (ran) played += chunk.length;
    await options.afterChunk?.(n);
    // The embedded database answers without real I/O, so a chunk's queries run as one chain of
    // promises that keeps the event loop from taking requests: give it a turn after each chunk,
    // so that GET /api/health answers while the demo's first start plays its history.
    await nextTurn();
  }
  return played;
}

const json = (rows: unknown[]) => sql`${JSON.stringify(rows)}::jsonb`;
const iso = (col: ReturnType<typeof sql>) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Moves what a chunk made to its planned times, and recomputes what depends on those times.
 * A donation was started a minute before it was paid.
 */
async function backdate(
  tx: Tx,
  orgId: string,
  made: {
    charges: { charge: string; at: Date }[];
    events: { id: string; at: Date }[];
    touched: { charge: string; at: Date }[];
    canceled: { subscription: string; at: Date }[];
    startedAt: Date;
    end: Date;
  },
): Promise<void> {
  const end = made.end.toISOString();
  // Donations paid in this chunk, and their timelines' first entry.
  await tx.execute(sql`
    update donations d set created_at = v.at - interval '1 minute', updated_at = v.at,
      succeeded_at = case when d.succeeded_at is null then null else v.at end
    from jsonb_to_recordset(${json(made.charges)}) as v(charge text, at timestamptz)
    where d.org_id = ${orgId} and d.charge_id = v.charge`);
  await tx.execute(sql`
    update donation_events e set created_at = d.created_at
    from donations d, jsonb_to_recordset(${json(made.charges)}) as v(charge text, at timestamptz)
    where d.org_id = ${orgId} and d.charge_id = v.charge and e.donation_id = d.id and e.type = 'donation.created'`);
  await tx.execute(sql`
    update donation_events e set created_at = v.at
    from jsonb_to_recordset(${json(made.events)}) as v(id text, at timestamptz)
    where e.processor_event_id = v.id and e.donation_id in (
      select d.id from donations d, jsonb_to_recordset(${json([...made.charges, ...made.touched])}) as c(charge text, at timestamptz)
      where d.org_id = ${orgId} and d.charge_id = c.charge)`);
  // Refunds and disputes: the donation last changed then.
  await tx.execute(sql`
    update donations d set updated_at = v.at
    from jsonb_to_recordset(${json(made.touched)}) as v(charge text, at timestamptz)
    where d.org_id = ${orgId} and d.charge_id = v.charge`);
  // Recurring plans: begun with their first gift, ended when canceled.
  await tx.execute(sql`
    update recurring_plans p set created_at = d.created_at, updated_at = d.updated_at
    from donations d, jsonb_to_recordset(${json(made.charges)}) as v(charge text, at timestamptz)
    where d.org_id = ${orgId} and d.charge_id = v.charge and not d.is_renewal and p.id = d.recurring_plan_id`);
  await tx.execute(sql`
    update recurring_plans p set canceled_at = v.at, updated_at = v.at
    from jsonb_to_recordset(${json(made.canceled)}) as v(subscription text, at timestamptz)
    where p.org_id = ${orgId} and p.subscription_id = v.subscription`);
  // This chunk's donors: first seen with their first gift; first/last gift times from their counted gifts.
  const changed = [...made.charges, ...made.touched];
  await tx.execute(sql`
    update donors o set created_at = x.created, updated_at = x.updated,
      first_donation_at = x.first, last_donation_at = x.last
    from (select donor_id, min(created_at) as created, max(updated_at) as updated,
                 min(succeeded_at) filter (where status = 'SUCCEEDED') as first,
                 max(succeeded_at) filter (where status = 'SUCCEEDED') as last
          from donations
          where org_id = ${orgId} and donor_id in (
            select d.donor_id from donations d, jsonb_to_recordset(${json(changed)}) as v(charge text, at timestamptz)
            where d.org_id = ${orgId} and d.charge_id = v.charge)
          group by donor_id) x
    where o.id = x.donor_id`);
  // The reports' per-day totals of the local days (the organization's time zone) this chunk
  // changed (today, where the services counted its gifts, and the days they were moved to), from
  // the donations' success times.
  const zone = sql`(select time_zone from organizations where id = ${orgId})`;
  const days = await tx.execute(sql`
    select distinct to_char(day, 'YYYY-MM-DD') as day from (
      select (now() at time zone ${zone})::date as day
      union all select (v.at at time zone ${zone})::date from jsonb_to_recordset(${json(made.charges)}) as v(charge text, at timestamptz)
      union all select (d.succeeded_at at time zone ${zone})::date
        from donations d, jsonb_to_recordset(${json(made.touched)}) as v(charge text, at timestamptz)
        where d.org_id = ${orgId} and d.charge_id = v.charge and d.succeeded_at is not null) s`);
  const dayList = ((Array.isArray(days) ? days : (days as unknown as { rows: unknown[] }).rows) as { day: string }[]).map((r) => r.day);
  const inDays = sql`in (${sql.join(
    dayList.map((d) => sql`${d}::date`),
    sql`, `,
  )})`;
  const onDays = sql.join(
    dayList.map(
      (d) =>
        sql`(succeeded_at >= ${d}::timestamp at time zone ${zone} and succeeded_at < (${d}::date + 1)::timestamp at time zone ${zone})`,
    ),
    sql` or `,
  );
  await tx.execute(sql`delete from campaign_daily_totals where org_id = ${orgId} and day ${inDays}`);
  await tx.execute(sql`
    insert into campaign_daily_totals (org_id, campaign_id, day, raised_cents, donation_count)
    select org_id, campaign_id, (succeeded_at at time zone ${zone})::date, sum(amount), count(*)
    from donations where org_id = ${orgId} and status = 'SUCCEEDED' and (${onDays})
    group by 1, 2, 3`);
  // Milestones reached in this chunk: reached by its end.
  await tx.execute(sql`
    update campaign_milestones m set reached_at = ${end}::timestamptz
    from campaigns c where c.id = m.campaign_id and c.org_id = ${orgId} and m.reached_at = now()`);
  // Webhook events (recorded, delivered to no endpoint): dated with what they report.
  await tx.execute(sql`
    update webhook_events w set created_at = t.at, payload = jsonb_set(w.payload, '{createdAt}', to_jsonb(${iso(sql`t.at`)}))
    from (select w2.id, coalesce((select d.updated_at from donations d where d.id = w2.payload->'data'->>'id'),
                                 (select p.updated_at from recurring_plans p where p.id = w2.payload->'data'->>'id'),
                                 ${end}::timestamptz) as at
          from webhook_events w2 where w2.org_id = ${orgId} and w2.created_at >= ${made.startedAt.toISOString()}::timestamptz) t
    where w.id = t.id`);
  // The emails this chunk queued: dated with their gift, their dates in the text too, and done.
  await tx.execute(sql`
    update outbox b set status = 'SENT', attempts = 1, created_at = t.at, next_attempt_at = t.at, sent_at = t.at,
      payload = case
        when b.payload->'props' ? 'date' then jsonb_set(b.payload, '{props,date}', to_jsonb(${iso(sql`t.succeeded`)}))
        when b.payload->'props' ? 'refundedAt' then jsonb_set(jsonb_set(b.payload, '{props,refundedAt}', to_jsonb(${iso(sql`t.at`)})),
                                                              '{props,donatedAt}', to_jsonb(${iso(sql`t.succeeded`)}))
        else b.payload end
    from (select b2.id, coalesce(d.updated_at, ${end}::timestamptz) as at, coalesce(d.succeeded_at, d.created_at) as succeeded
          from outbox b2 left join donations d on d.id = split_part(b2.dedupe_key, ':', 3)
          where b2.org_id = ${orgId} and b2.kind = 'email' and b2.status = 'PENDING' and b2.created_at = now()) t
    where b.id = t.id`);
}
