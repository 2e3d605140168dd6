import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, donationEvents, donations, outbox, type Donation, type DonationStatus } from "@/db/schema";
import { keysetPage, type Keyset, type KeysetPage } from "./rows";
import { containsAny } from "./search";

/**
 * Where a page of the newest-first donations list ends: the last row's `created_at` with its
 * full microsecond precision (as Postgres prints it, never through a JS Date, which keeps
 * milliseconds only) and its ID, the tie-break. Rows are ordered by `(created_at, id)` desc, so
 * a cursor names a fixed point in that order: rows inserted later never shift a page.
 */
export type DonationCursor = { createdAt: string; id: string };

/** What the donations list and its CSV export select by; bounds are ISO 8601 instants, `to` exclusive. */
export type DonationFilter = { status?: DonationStatus[]; campaignId?: string; from?: string; to?: string; q?: string };

/** `created_at` as Postgres holds it (microseconds, UTC), for cursors: never read through a JS Date. */
const createdAtText = sql<string>`to_char(${donations.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The conditions of the donations list and its CSV export (one builder, so both always select
 * the same rows): the organization, `status` (any of those listed), `campaignId`, `from` ≤ created_at < `to`, and `q`
 * (case-insensitive substring of the email, first name, last name or full name).
 */
export function donationFilterConditions(orgId: string, filter: DonationFilter): SQL[] {
  const conditions: SQL[] = [eq(donations.orgId, orgId)];
  if (filter.status?.length) conditions.push(inArray(donations.status, filter.status));
  if (filter.campaignId) conditions.push(eq(donations.campaignId, filter.campaignId));
  // Bound as text and cast in SQL (never through a JS Date), so a bound given with microseconds keeps them.
  if (filter.from) conditions.push(sql`${donations.createdAt} >= (${filter.from}::text)::timestamptz`);
  if (filter.to) conditions.push(sql`${donations.createdAt} < (${filter.to}::text)::timestamptz`);
  if (filter.q) {
    conditions.push(
      containsAny(filter.q, [
        donations.email,
        donations.firstName,
        donations.lastName,
        sql`concat_ws(' ', ${donations.firstName}, ${donations.lastName})`,
      ]),
    );
  }
  return conditions;
}

export type DonationListRow = { donation: Donation; campaignTitle: string };

/**
 * One page of an organization's donations, newest first by `(created_at, id)`, after `cursor`
 * (keyset paging: each page is one index range scan, whatever its depth, and rows inserted
 * meanwhile never shift or repeat a page). Answers the rows and the cursor after the last one,
 * null when nothing follows.
 */
export async function listDonationsPage(
  db: DbOrTx,
  orgId: string,
  filter: DonationFilter,
  page: KeysetPage<DonationCursor>,
): Promise<Keyset<DonationListRow, DonationCursor>> {
  const conditions = donationFilterConditions(orgId, filter);
  if (page.cursor) {
    conditions.push(sql`(${donations.createdAt}, ${donations.id}) < ((${page.cursor.createdAt}::text)::timestamptz, ${page.cursor.id})`);
  }
  const found = await db
    .select({ donation: donations, campaignTitle: campaigns.title, createdAtText })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(and(...conditions))
    .orderBy(desc(donations.createdAt), desc(donations.id))
    .limit(page.limit + 1);
  const { rows, nextCursor } = keysetPage(found, page.limit, (last) => ({ createdAt: last.createdAtText, id: last.donation.id }));
  return { rows: rows.map(({ donation, campaignTitle }) => ({ donation, campaignTitle })), nextCursor };
}

/** How many of an organization's donations are in each status (statuses with none are left out). */
export async function countDonationsByStatus(db: DbOrTx, orgId: string): Promise<Partial<Record<Donation["status"], number>>> {
  const rows = await db
    .select({ status: donations.status, n: sql<number>`count(*)::int` })
    .from(donations)
    .where(eq(donations.orgId, orgId))
    .groupBy(donations.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** A donor's donations, newest first, with their campaign's title. */
export async function listDonationsOfDonor(db: DbOrTx, donorId: string, limit: number): Promise<DonationListRow[]> {
  return db
    .select({ donation: donations, campaignTitle: campaigns.title })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(eq(donations.donorId, donorId))
    .orderBy(desc(donations.createdAt), desc(donations.id))
    .limit(limit);
}

/** The emails queued for one donation: their outbox keys are `email:<kind>:<donationId>`. */
export const DONATION_EMAIL_KINDS = ["receipt", "admin", "tribute"] as const;

export type TimelineRow =
  | { kind: "event"; micros: bigint; seq: number; type: string; at: Date; processorEventId: string | null; data: Record<string, unknown> }
  | {
      kind: "email";
      micros: bigint;
      seq: number;
      template: string;
      recipient: string;
      status: "PENDING" | "SENT" | "FAILED";
      at: Date;
      sentAt: Date | null;
      attempts: number;
    };

/**
 * A donation's timeline: its events and the emails queued for it, oldest first. Times are
 * compared in microseconds as Postgres holds them; an email queued in the same transaction as
 * an event (so at the same `now()`) sorts after it, ties otherwise by insertion order.
 */
export async function getDonationTimeline(db: DbOrTx, donationId: string): Promise<TimelineRow[]> {
  const epochMicros = (col: typeof donationEvents.createdAt | typeof outbox.createdAt) =>
    sql<string>`(extract(epoch from ${col}) * 1000000)::bigint::text`;
  const [events, emails] = await Promise.all([
    db
      .select({
        id: donationEvents.id,
        type: donationEvents.type,
        processorEventId: donationEvents.processorEventId,
        data: donationEvents.data,
        createdAt: donationEvents.createdAt,
        micros: epochMicros(donationEvents.createdAt),
      })
      .from(donationEvents)
      .where(eq(donationEvents.donationId, donationId)),
    db
      .select({
        id: outbox.id,
        payload: outbox.payload,
        status: outbox.status,
        attempts: outbox.attempts,
        createdAt: outbox.createdAt,
        sentAt: outbox.sentAt,
        micros: epochMicros(outbox.createdAt),
      })
      .from(outbox)
      .where(
        and(
          eq(outbox.kind, "email"),
          inArray(
            outbox.dedupeKey,
            DONATION_EMAIL_KINDS.map((k) => `email:${k}:${donationId}`),
          ),
        ),
      ),
  ]);
  const rows: TimelineRow[] = [
    ...events.map((e) => ({
      kind: "event" as const,
      micros: BigInt(e.micros),
      seq: e.id,
      type: e.type,
      at: e.createdAt,
      processorEventId: e.processorEventId,
      data: e.data ?? {},
    })),
    ...emails.map((m) => ({
      kind: "email" as const,
      micros: BigInt(m.micros),
      seq: m.id,
      template: String(m.payload.template ?? "unknown"),
      recipient: String(m.payload.to ?? ""),
      status: m.status,
      at: m.createdAt,
      sentAt: m.sentAt,
      attempts: m.attempts,
    })),
  ];
  const rank = { event: 0, email: 1 } as const;
  return rows.sort((a, b) => (a.micros !== b.micros ? (a.micros < b.micros ? -1 : 1) : rank[a.kind] - rank[b.kind] || a.seq - b.seq));
}
