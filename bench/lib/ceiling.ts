import { randomBytes } from "node:crypto";
import type { Sql } from "postgres";

/**
 * The database ceiling of `payment_intent.succeeded`: the SQL the webhook runs for one event,
 * statement for statement (lib/services/processor/apply-processor-event.ts →
 * lib/services/processor/events/payment-intent-succeeded.ts → lib/services/donations/move-donation.ts
 * (with donation-aggregates.ts, daily-totals.ts and donation-effects.ts) for
 * a PENDING one-time gift on a plain DONATION campaign, no matching, no tickets, no parent, no
 * milestone crossed, organization with a notification email, no outbound webhook endpoint),
 * issued with the same driver (`postgres`) and the same statement mode (prepared, see db/index.ts), over a pool of the app's size,
 * with none of the app around it: no HTTP, no signature check, no JSON parsing, no ORM.
 * Keep it in step with those files when they change.
 */

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const newId = (prefix: string) => `${prefix}_${Array.from(randomBytes(20), (b) => ALPHABET[b % 62]).join("")}`;

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? null : String(v));

/** The API's Donation (lib/schemas/donations.ts serializeDonation), which the outbound event carries. */
function donationJson(d: Row) {
  return {
    id: d.id,
    orgId: d.org_id,
    campaignId: d.campaign_id,
    donorId: d.donor_id,
    amount: d.amount,
    currency: d.currency,
    status: d.status,
    email: d.email,
    firstName: d.first_name,
    lastName: d.last_name,
    anonymous: d.anonymous,
    message: d.message,
    dedication: d.dedication ?? null,
    recurringInterval: d.recurring_interval,
    recurringPlanId: d.recurring_plan_id,
    subscriptionId: d.subscription_id,
    isRenewal: d.is_renewal,
    tickets: d.tickets,
    coverFees: d.cover_fees,
    feeCents: d.fee_cents,
    matchedAmountCents: d.matched_amount_cents,
    paymentIntentId: d.payment_intent_id,
    failureReason: d.failure_reason,
    disputeReason: d.dispute_reason,
    createdAt: iso(d.created_at),
    updatedAt: iso(d.updated_at),
    succeededAt: iso(d.succeeded_at),
  };
}

export async function succeedPaymentIntent(
  sql: Sql,
  ev: { eventId: string; paymentIntentId: string; donationId: string; chargeId: string; amountReceived: number },
  appUrl: string,
): Promise<"applied" | "duplicate" | "ignored"> {
  return sql.begin(async (tx) => {
    // applyProcessorEvent: the processed-event mark and the handler's first statement (the donation's lock) together.
    const [fresh, [donation]] = await Promise.all([
      tx`insert into processed_events (id, type) values (${ev.eventId}, 'payment_intent.succeeded')
         on conflict do nothing returning id`,
      tx`select * from donations where (payment_intent_id = ${ev.paymentIntentId} or id = ${ev.donationId})
         limit 1 for update`,
    ]);
    if (fresh.length === 0) return "duplicate" as const;
    if (!donation || donation.recurring_plan_id || donation.subscription_id) return "ignored" as const;
    const from = donation.status as string;
    if (from !== "PENDING" && from !== "FAILED") throw new Error(`ceiling expects PENDING donations, got ${from}`);

    // moveDonation(tx, donation, "SUCCEEDED", …): gained, no tickets, matching off. The UPDATE takes the campaign's row
    // lock; the organization and the donor's language (the gift has none) are read with it, and the donation's UPDATE
    // goes out with them.
    const [[campaign], [org], , [succeeded], [numbered]] = await Promise.all([
      tx`
      update campaigns set raised_amount_cents = raised_amount_cents + ${donation.amount}, donation_count = donation_count + ${1},
                           matched_amount_cents = matched_amount_cents - ${0}, tickets_sold = tickets_sold + ${0}
      where id = ${donation.campaign_id} returning *`,
      tx`select * from organizations where id = ${donation.org_id}`,
      tx`select locale from donors where id = ${donation.donor_id}`,
      tx`
      update donations set charge_id = ${ev.chargeId}, payment_intent_id = ${donation.payment_intent_id ?? ev.paymentIntentId},
                           status = 'SUCCEEDED', matched_amount_cents = ${0}, succeeded_at = coalesce(succeeded_at, now()),
                           failure_reason = ${null}, dispute_reason = dispute_reason, updated_at = now()
      where id = ${donation.id} returning *`,
      // numberOnOwnCampaign (db/queries/receipts.ts): the organization's counter for the year (its row lock, taken
      // after the campaign's, held to commit) and the gift's receipt number, one statement.
      tx`
      with taken as (
        insert into receipt_counters (org_id, year, last_seq)
        select d.org_id, extract(year from (coalesce(d.succeeded_at, now()) at time zone 'UTC'))::int, 1
        from donations d join campaigns k on k.id = d.campaign_id
        where d.id = ${donation.id} and d.receipt_number is null and k.parent_campaign_id is null and k.team_id is null
        on conflict (org_id, year) do update set last_seq = receipt_counters.last_seq + 1
        returning year, last_seq
      )
      update donations set receipt_number =
        taken.year || '-' || case when taken.last_seq >= 1000000 then taken.last_seq::text else lpad(taken.last_seq::text, 6, '0') end
      from taken where donations.id = ${donation.id}
      returning donations.receipt_number`,
    ]);
    const moved = Object.assign(succeeded, { receipt_number: numbered?.receipt_number as string | undefined });
    const evtId = newId("evt");
    const createdAt = new Date().toISOString();
    const event = { id: evtId, type: "donation.succeeded", createdAt, data: donationJson(moved) };
    // The rest of moveDonation's statements, issued together (pipelined), in its order: per-day totals, donor,
    // timeline, outbound event, emails.
    const name = [moved.first_name, moved.last_name].filter(Boolean).join(" ") || null;
    const receipt = {
      template: "receipt",
      to: moved.email,
      props: {
        donorFirstName: moved.first_name,
        donorName: name,
        donorEmail: moved.email,
        amountCents: moved.amount + moved.fee_cents,
        currency: moved.currency,
        campaignTitle: campaign.title,
        orgName: org.name,
        orgLegalName: org.legal_name,
        orgTaxId: org.tax_id,
        date: iso(moved.succeeded_at),
        donationId: moved.id,
        dedication: null,
        recurring: null,
        isRenewal: moved.is_renewal,
        tickets: moved.tickets,
        campaignUrl: `${appUrl}/o/${org.slug}/donate/${campaign.slug}`,
      },
    };
    const admin = {
      template: "admin-notification",
      to: org.notification_email,
      props: {
        orgName: org.name,
        donorName: name,
        donorEmail: moved.email,
        anonymous: moved.anonymous,
        amountCents: moved.amount,
        currency: moved.currency,
        campaignTitle: campaign.title,
        message: moved.message,
        donationId: moved.id,
        isRenewal: moved.is_renewal,
        recurringInterval: moved.recurring_interval,
        dashboardUrl: `${appUrl}/dashboard/${org.slug}/donations/${moved.id}`,
      },
    };
    await Promise.all([
      tx`
      insert into campaign_daily_totals (org_id, campaign_id, day, raised_cents, donation_count)
      select org_id, campaign_id, (succeeded_at at time zone (select o.time_zone from organizations o where o.id = donations.org_id))::date,
             amount, 1
      from donations where id = ${donation.id}
      on conflict (campaign_id, day) do update set
        raised_cents = campaign_daily_totals.raised_cents + excluded.raised_cents,
        donation_count = campaign_daily_totals.donation_count + excluded.donation_count`,
      tx`
      update donors set total_given_cents = total_given_cents + ${donation.amount}, donation_count = donation_count + 1,
        first_donation_at = least(first_donation_at, (select succeeded_at from donations where id = ${donation.id})),
        last_donation_at = greatest(last_donation_at, (select succeeded_at from donations where id = ${donation.id})),
        updated_at = now()
      where id = ${donation.donor_id}`,
      tx`insert into donation_events (donation_id, type, processor_event_id, data)
             values (${donation.id}, 'payment_intent.succeeded', ${ev.eventId},
                     ${tx.json({ from, to: "SUCCEEDED", paymentIntentId: ev.paymentIntentId, amountReceived: ev.amountReceived })})`,
      // emitDonationEvent → emitEvent: the event row and an outbox row per subscribed endpoint (none here), one statement.
      tx`with event as (
               insert into webhook_events (id, org_id, type, payload, created_at)
               values (${evtId}, ${donation.org_id}, 'donation.succeeded', ${JSON.stringify(event)}::jsonb, ${createdAt}::timestamptz)
             )
             insert into outbox (kind, dedupe_key, org_id, payload)
             select 'webhook', ${`webhook:${evtId}:`} || id, ${donation.org_id}, jsonb_build_object('eventId', ${evtId}::text, 'endpointId', id)
             from webhook_endpoints
             where org_id = ${donation.org_id} and enabled and (cardinality(event_types) = 0 or ${"donation.succeeded"} = any(event_types))
             on conflict (dedupe_key) do nothing`,
      // queueMilestones: below the first threshold, no query. queueSuccessEmails: receipt + admin notification in one statement.
      tx`insert into outbox (kind, dedupe_key, org_id, payload)
               values ('email', ${`email:receipt:${moved.id}`}, ${org.id}, ${JSON.stringify(receipt)}),
                      ('email', ${`email:admin:${moved.id}`}, ${org.id}, ${JSON.stringify(admin)})
               on conflict (dedupe_key) do nothing returning id`,
    ]);
    return "applied" as const;
  }) as Promise<"applied" | "duplicate" | "ignored">;
}
