import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { sqlStatement, statement } from "@/db/statements";
import { donations } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

/**
 * The events that count as a failed payment for the card-testing defence: a declined card
 * (`payment_intent.payment_failed`) and a canceled payment (`payment_intent.canceled`), each only
 * when it found the donation PENDING. A decline moves the donation to FAILED, or leaves it PENDING
 * with its event tickets while its payment stays payable; it counts either way. An expired ticket
 * hold counts too (the worker marks it: expire-unpaid-donations.ts), since holding seats unpaid is
 * how a script keeps an event sold out. Not counted: payments the processor could not start (our
 * outage, not the client's doing), abandoned checkouts without tickets, and a processor's cancel
 * that follows a hold's expiry (already FAILED, counted once).
 */
const COUNTED_EVENTS: readonly string[] = ["payment_intent.payment_failed", "payment_intent.canceled"];

/** Whether a donation's move from `from` by this event is a failed payment the defence counts. */
export const isCountedFailure = (from: string, eventType: string) => from === "PENDING" && COUNTED_EVENTS.includes(eventType);

const ph = sql.placeholder;

/** Stamps a counted failure on its donation (in the caller's transaction): the defence reads these. */
export const markPaymentFailed = statement(donations, (db) =>
  db
    .update(donations)
    .set({ paymentFailedAt: sql`now()` })
    .where(eq(donations.id, ph("id"))),
);

/**
 * Card-testing defence: a client (by its rate-limit key) whose donations failed through a
 * declined or canceled payment or an expired ticket hold (FAILED, or PENDING on a declined card while holding tickets; a
 * donation paid after all no longer counts) `FAILED_PAYMENTS_LIMIT` times within the last
 * `FAILED_PAYMENTS_WINDOW_MINUTES` may not start another donation: 429 with `Retry-After` until
 * enough of those failures leave the window to bring the count under the limit.
 */
export async function assertFewFailedPayments(db: DbOrTx, clientIp: string | null): Promise<void> {
  if (!clientIp) return;
  const env = getEnv();
  const limit = env.FAILED_PAYMENTS_LIMIT;
  const rows = await recentFailures(db, { clientIp, window: `${env.FAILED_PAYMENTS_WINDOW_MINUTES} minutes`, limit });
  if (rows.length < limit) return;
  const seconds = Math.max(1, Math.ceil(Number(rows[rows.length - 1].wait)));
  throw new AppError("too_many_failed_payments", "Too many failed payments, try again later", undefined, {
    "Retry-After": String(seconds),
  });
}

const windowInterval = sql`${ph("window")}::interval`;

// The newest `limit` counted failures (donations.payment_failed_at, indexed per client): while
// there are that many, the oldest of them decides when the client may try again. A donation paid
// after all (SUCCEEDED or later) no longer counts. Built once (db/statements.ts).
const recentFailures = sqlStatement(
  sql`
    select extract(epoch from (d.payment_failed_at + ${windowInterval} - now())) as wait
    from donations d
    where d.client_ip = ${ph("clientIp")} and d.payment_failed_at is not null
      and d.payment_failed_at > now() - ${windowInterval} and d.status in ('FAILED', 'PENDING')
    order by d.payment_failed_at desc
    limit ${ph("limit")}`,
);
