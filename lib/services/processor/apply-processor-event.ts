import { sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "@/db";
import { statement } from "@/db/statements";
import { processedEvents } from "@/db/schema";
import { transactionDroppingViews } from "@/lib/cache/public-campaign-view";
import type { PaymentProcessor } from "@/lib/processor/types";
import { EVENT_HANDLERS } from "./events";
import type { EventHandler } from "./events/types";

/** Marks an event processed; answers no row when it already was. */
const markProcessed = statement(processedEvents, (db) =>
  db
    .insert(processedEvents)
    .values({ id: sql.placeholder("id"), type: sql.placeholder("type") })
    .onConflictDoNothing()
    .returning({ id: processedEvents.id }),
);

export type ApplyResult = "applied" | "ignored" | "duplicate" | "unhandled";

/**
 * Applies one verified processor event exactly once across all instances and restarts: the
 * event ID is inserted into `processed_events` in the same transaction as the event's effects.
 * A concurrent delivery of the same ID waits on that row and then finds it taken (duplicate, its
 * transaction rolled back); a failure rolls back both the effects and the mark, so the
 * processor's retry applies it. A handler's `apply` must only touch the database (its network
 * calls belong in `prepare`): a duplicate's `apply` runs too, and only its transaction is undone.
 */
export async function applyProcessorEvent(db: Db, event: Stripe.Event, processor: PaymentProcessor): Promise<ApplyResult> {
  // Own keys only: a type such as `constructor` or `__proto__` must not find Object.prototype's members.
  if (!Object.hasOwn(EVENT_HANDLERS, event.type)) return "unhandled";
  const handler = EVENT_HANDLERS[event.type] as EventHandler<Stripe.Event, unknown>;
  const prepared = handler.prepare ? await handler.prepare(event, processor) : undefined;
  // Once committed, the public views of the campaigns whose totals it changed are dropped again.
  try {
    return await transactionDroppingViews(db, async (tx) => {
      // The mark goes out first and the handler's statements right behind it, in one round trip:
      // Postgres runs them in that order, so a second delivery still waits on the first's mark.
      // A mark that finds the event already processed rolls back whatever the handler did.
      const marked = markProcessed(tx, { id: event.id, type: event.type });
      const [fresh, applied] = await Promise.allSettled([marked, handler.apply(tx, event, prepared)]);
      if (fresh.status === "rejected") throw fresh.reason;
      if (fresh.value.length === 0) throw new AlreadyProcessed();
      if (applied.status === "rejected") throw applied.reason;
      return applied.value;
    });
  } catch (err) {
    if (err instanceof AlreadyProcessed) return "duplicate";
    throw err;
  }
}

/** Thrown inside the transaction to roll back a duplicate delivery's effects. */
class AlreadyProcessed extends Error {}
