import { sql } from "drizzle-orm";
import type { Db } from "@/db";

export type Violation = { kind: string; id: string; expected: unknown; actual: unknown };

/**
 * Every aggregate recomputed from the donations table and compared with the stored one, for the
 * given organizations: campaign raised/count (parents include their fundraiser pages, team pages
 * their members' pages), matched
 * (and its cap), tickets held (never more than the capacity, and no seat paid for twice), each
 * ticket tier's sold seats (its orders' quantities, never more than its capacity), donor
 * totals, the reports' per-day campaign totals; a payment canceled by a ticket hold's expiry
 * never succeeding afterwards; and emails:
 * exactly one receipt for each donation whose timeline shows a payment turning it SUCCEEDED
 * (or an offline gift recorded with `sendReceipt`), none for the others; receipt numbers: one
 * for each gift that ever succeeded (imports aside), none for the others, and per organization
 * and year exactly 1…n with the counter at n.
 */
export async function findViolations(db: Db, orgIds: string[]): Promise<Violation[]> {
  const rows = async <T>(q: ReturnType<typeof sql>) => {
    const r = await db.execute(q);
    return (Array.isArray(r) ? r : (r as unknown as { rows: T[] }).rows) as T[];
  };
  const orgList = sql.join(
    orgIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const out: Violation[] = [];
  /** A stored number that is not the one recomputed from the donations. */
  const differs = (kind: string, id: string, expected: unknown, actual: unknown) => {
    if (Number(actual) !== Number(expected)) out.push({ kind, id, expected: Number(expected), actual: Number(actual) });
  };

  const campaigns = await rows<{
    id: string;
    raised: string;
    count: string;
    matched: string;
    max: string | null;
    tickets: string;
    capacity: string | null;
    paid_tickets: string;
    exp_raised: string;
    exp_count: string;
    exp_matched: string;
    exp_tickets: string;
  }>(sql`
    -- A campaign's raised and count include its fundraiser pages (as their parent) and its
    -- members' pages (as their team): each campaign's own gifts are summed once, then rolled up to
    -- every campaign they count for (a correlated subquery per campaign over an OR scanned all the
    -- donations once per campaign).
    with targets as (
      select c.id as target, c.id as campaign_id from campaigns c where c.org_id in (${orgList})
      union select c.parent_campaign_id, c.id from campaigns c where c.org_id in (${orgList}) and c.parent_campaign_id is not null
      union select c.team_id, c.id from campaigns c where c.org_id in (${orgList}) and c.team_id is not null
    ),
    own as (
      select d.campaign_id, sum(d.amount) as raised, count(*) as n from donations d
      where d.status = 'SUCCEEDED' and d.campaign_id in (select campaign_id from targets) group by d.campaign_id
    ),
    rolled as (
      select t.target, sum(o.raised) as raised, sum(o.n) as n from targets t join own o on o.campaign_id = t.campaign_id group by t.target
    )
    select c.id, c.raised_amount_cents as raised, c.donation_count as count, c.matched_amount_cents as matched,
           c.matching_max_cents as max, c.tickets_sold as tickets, c.ticket_capacity as capacity,
           coalesce((select sum(d.tickets) from donations d where d.campaign_id = c.id and d.status in ('SUCCEEDED', 'DISPUTED')), 0) as paid_tickets,
           coalesce(r.raised, 0) as exp_raised, coalesce(r.n, 0) as exp_count,
           coalesce((select sum(d.matched_amount_cents) from donations d where d.campaign_id = c.id and d.status = 'SUCCEEDED'), 0) as exp_matched,
           coalesce((select sum(d.tickets) from donations d where d.campaign_id = c.id and d.status in ('PENDING', 'SUCCEEDED', 'DISPUTED')), 0) as exp_tickets
    from campaigns c left join rolled r on r.target = c.id
    where c.org_id in (${orgList})`);
  for (const c of campaigns) {
    differs("campaign.raised", c.id, c.exp_raised, c.raised);
    differs("campaign.count", c.id, c.exp_count, c.count);
    differs("campaign.matched", c.id, c.exp_matched, c.matched);
    if (c.max !== null && Number(c.matched) > Number(c.max))
      out.push({ kind: "campaign.matched_cap", id: c.id, expected: Number(c.max), actual: Number(c.matched) });
    differs("campaign.tickets", c.id, c.exp_tickets, c.tickets);
    if (c.capacity !== null && Number(c.tickets) > Number(c.capacity))
      out.push({ kind: "campaign.tickets_capacity", id: c.id, expected: Number(c.capacity), actual: Number(c.tickets) });
    if (c.capacity !== null && Number(c.paid_tickets) > Number(c.capacity))
      out.push({ kind: "campaign.seats_sold_twice", id: c.id, expected: Number(c.capacity), actual: Number(c.paid_tickets) });
  }

  // Each ticket tier's sold seats: the quantities its lines hold in orders that hold seats
  // (PENDING, SUCCEEDED, DISPUTED), and never more than its capacity.
  const tiers = await rows<{ id: string; sold: string; capacity: string; exp_sold: string }>(sql`
    select c.id || '/' || (t.value->>'id') as id, (t.value->>'sold')::int as sold, (t.value->>'capacity')::int as capacity,
           coalesce((select sum((l.value->>'quantity')::int)
                     from donations d
                     cross join jsonb_array_elements(case when jsonb_typeof(d.ticket_order) = 'array' then d.ticket_order else '[]'::jsonb end) as l(value)
                     where d.campaign_id = c.id and d.status in ('PENDING', 'SUCCEEDED', 'DISPUTED')
                       and l.value->>'tierId' = t.value->>'id'), 0) as exp_sold
    from campaigns c
    cross join jsonb_array_elements(case when jsonb_typeof(c.ticket_tiers) = 'array' then c.ticket_tiers else '[]'::jsonb end) as t(value)
    where c.org_id in (${orgList})`);
  for (const t of tiers) {
    differs("tier.sold", t.id, t.exp_sold, t.sold);
    if (Number(t.sold) > Number(t.capacity))
      out.push({ kind: "tier.capacity", id: t.id, expected: Number(t.capacity), actual: Number(t.sold) });
  }

  const donors = await rows<{
    id: string;
    total: string;
    count: string;
    exp_total: string;
    exp_count: string;
    first: unknown;
    exp_first: unknown;
    last: unknown;
    exp_last: unknown;
  }>(sql`
    select o.id, o.total_given_cents as total, o.donation_count as count,
           coalesce((select sum(d.amount) from donations d where d.donor_id = o.id and d.status = 'SUCCEEDED'), 0) as exp_total,
           (select count(*) from donations d where d.donor_id = o.id and d.status = 'SUCCEEDED') as exp_count,
           o.first_donation_at::text as first, (select min(d.succeeded_at)::text from donations d where d.donor_id = o.id and d.status = 'SUCCEEDED') as exp_first,
           o.last_donation_at::text as last, (select max(d.succeeded_at)::text from donations d where d.donor_id = o.id and d.status = 'SUCCEEDED') as exp_last
    from donors o where o.org_id in (${orgList})`);
  for (const d of donors) {
    differs("donor.total", d.id, d.exp_total, d.total);
    differs("donor.count", d.id, d.exp_count, d.count);
    // A donor with no counted gift may keep the time of one that later stopped counting only if
    // recomputed; both must agree exactly when gifts count.
    if (Number(d.exp_count) > 0 && (d.first !== d.exp_first || d.last !== d.exp_last)) {
      out.push({ kind: "donor.first_last", id: d.id, expected: [d.exp_first, d.exp_last], actual: [d.first, d.last] });
    }
  }

  // The reports' per-day totals: each campaign's SUCCEEDED donations by the local day (its
  // organization's time zone) of succeeded_at. A join, not a subquery per donation: a million
  // donations take seconds this way, minutes the other.
  const days = await rows<{ id: string; raised: string; count: string; exp_raised: string; exp_count: string }>(sql`
    select coalesce(t.campaign_id, e.campaign_id) || '@' || coalesce(t.day, e.day)::text as id,
           coalesce(t.raised_cents, 0) as raised, coalesce(t.donation_count, 0) as count,
           coalesce(e.raised, 0) as exp_raised, coalesce(e.n, 0) as exp_count
    from (select * from campaign_daily_totals where org_id in (${orgList})) t
    full join (select d.campaign_id, (d.succeeded_at at time zone o.time_zone)::date as day, sum(d.amount) as raised, count(*) as n
               from donations d join organizations o on o.id = d.org_id
               where d.org_id in (${orgList}) and d.status = 'SUCCEEDED' group by 1, 2) e
      on e.campaign_id = t.campaign_id and e.day = t.day`);
  for (const d of days) {
    if (Number(d.raised) !== Number(d.exp_raised) || Number(d.count) !== Number(d.exp_count)) {
      out.push({
        kind: "daily_totals",
        id: d.id,
        expected: [Number(d.exp_raised), Number(d.exp_count)],
        actual: [Number(d.raised), Number(d.count)],
      });
    }
  }

  const receipts = await rows<{ id: string; receipts: string; paid: boolean }>(sql`
    select d.id,
           (select count(*) from outbox b where b.dedupe_key = 'email:receipt:' || d.id) as receipts,
           -- A donor without email (an offline gift) gets no receipt email.
           d.email is not null and (exists (select 1 from donation_events e where e.donation_id = d.id
                   and e.type in ('payment_intent.succeeded', 'invoice.payment_succeeded')
                   and e.data->>'to' = 'SUCCEEDED' and e.data->>'from' <> 'SUCCEEDED')
           -- An offline gift's receipt goes out when staff asked for it.
           or exists (select 1 from donation_events e where e.donation_id = d.id
                   and e.type = 'offline_gift.recorded' and (e.data->>'sendReceipt')::boolean)) as paid
    from donations d where d.org_id in (${orgList})`);
  for (const r of receipts) {
    const expected = r.paid ? 1 : 0;
    if (Number(r.receipts) !== expected) out.push({ kind: "email.receipt", id: r.id, expected, actual: Number(r.receipts) });
  }

  const numbering = await rows<{ id: string; numbers: string; distinct_numbers: string; max_seq: string; counter: string | null }>(sql`
    select n.org_id || '@' || n.year as id, count(*) as numbers, count(distinct n.seq) as distinct_numbers, max(n.seq) as max_seq,
           (select c.last_seq from receipt_counters c where c.org_id = n.org_id and c.year = n.year) as counter
    from (select d.org_id, split_part(d.receipt_number, '-', 1)::int as year, split_part(d.receipt_number, '-', 2)::int as seq
          from donations d where d.org_id in (${orgList}) and d.receipt_number is not null) n
    group by n.org_id, n.year`);
  for (const n of numbering) {
    const seqs = [Number(n.numbers), Number(n.distinct_numbers), Number(n.max_seq), Number(n.counter)];
    if (new Set(seqs).size !== 1) out.push({ kind: "receipt.numbers", id: n.id, expected: Number(n.numbers), actual: seqs });
  }
  const unnumbered = await rows<{ id: string; status: string; receipt_number: string | null }>(sql`
    select d.id, d.status, d.receipt_number from donations d
    where d.org_id in (${orgList}) and d.source <> 'IMPORT'
      and (d.succeeded_at is not null and d.status in ('SUCCEEDED', 'DISPUTED', 'REFUNDED', 'VOIDED')) <> (d.receipt_number is not null)`);
  for (const d of unnumbered) out.push({ kind: "receipt.number_missing", id: d.id, expected: d.status, actual: d.receipt_number });

  const expiredThenPaid = await rows<{ id: string; status: string }>(sql`
    select d.id, d.status from donations d
    where d.org_id in (${orgList}) and d.status in ('SUCCEEDED', 'DISPUTED', 'REFUNDED')
      and exists (select 1 from donation_events e where e.donation_id = d.id and e.type = 'ticket_hold.expired')`);
  for (const d of expiredThenPaid) out.push({ kind: "donation.expired_then_paid", id: d.id, expected: "FAILED", actual: d.status });

  const twice = await rows<{ processor_event_id: string; n: string }>(sql`
    select e.processor_event_id, count(*) as n from donation_events e join donations d on d.id = e.donation_id
    where d.org_id in (${orgList}) and e.processor_event_id is not null
    group by e.processor_event_id having count(*) > 1`);
  for (const t of twice) out.push({ kind: "event.applied_twice", id: t.processor_event_id, expected: 1, actual: Number(t.n) });
  return out;
}
