import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { preparedSql, rowsOf } from "@/db/prepared";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";

/**
 * The events that count as a failed payment for the card-testing defence: a declined card
 * (`payment_intent.payment_failed`) and a canceled payment (`payment_intent.canceled`), each only
 * when it found the donation PENDING. A decline moves the donation to FAILED, or leaves it PENDING
 * with its event tickets while its payment stays payable; it counts either way. Not counted:
 * expired ticket holds (an abandoned checkout tried no card), payments the processor could not
 * start (our outage, not the client's doing), and a processor's cancel that follows a hold's
 * expiry (already FAILED).
 */
const COUNTED_EVENTS = ["payment_intent.payment_failed", "payment_intent.canceled"] as const;

/**
 * Card-testing defence: a client (by its rate-limit key) whose donations failed through a
 * declined or canceled payment (FAILED, or PENDING on a declined card while holding tickets; a
 * donation paid after all no longer counts) `FAILED_PAYMENTS_LIMIT` times within the last
 * `FAILED_PAYMENTS_WINDOW_MINUTES` may not start another donation: 429 with `Retry-After` until
 * enough of those failures leave the window to bring the count under the limit.
 */
export async function assertFewFailedPayments(db: DbOrTx, clientIp: string | null): Promise<void> {
  if (!clientIp) return;
  const env = getEnv();
  const limit = env.FAILED_PAYMENTS_LIMIT;
  const result = await recentFailures(db, { clientIp, window: `${env.FAILED_PAYMENTS_WINDOW_MINUTES} minutes`, limit });
  const rows = rowsOf<{ wait: string | number }>(result);
  if (rows.length < limit) return;
  const seconds = Math.max(1, Math.ceil(Number(rows[rows.length - 1].wait)));
  throw new AppError("too_many_failed_payments", "Too many failed payments, try again later", undefined, {
    "Retry-After": String(seconds),
  });
}

const windowInterval = sql`${sql.placeholder("window")}::interval`;

// The newest `limit` counted failures: while there are that many, the oldest of them decides
// when the client may try again. Built once (db/prepared.ts).
const recentFailures = preparedSql(
  "recent_failed_payments",
  sql`
    select extract(epoch from (d.updated_at + ${windowInterval} - now())) as wait
    from donations d
    where d.client_ip = ${sql.placeholder("clientIp")} and d.status in ('FAILED', 'PENDING') and d.updated_at > now() - ${windowInterval}
      and exists (select 1 from donation_events e
                  where e.donation_id = d.id and e.type in (${sql.join(
                    COUNTED_EVENTS.map((t) => sql`${t}`),
                    sql`, `,
                  )}) and e.data->>'from' = 'PENDING')
    order by d.updated_at desc
    limit ${sql.placeholder("limit")}`,
);
