import type Stripe from "stripe";
import type { Db } from "@/db";
import { processedEvents } from "@/db/schema";
import { EVENT_HANDLERS } from "@/lib/processor/events";
import type { EventHandler } from "@/lib/processor/events/types";
import type { PaymentProcessor } from "@/lib/processor/types";

export type ApplyResult = "applied" | "ignored" | "duplicate" | "unhandled";

/**
 * Applies one verified processor event exactly once across all instances and restarts: the
 * event ID is inserted into `processed_events` in the same transaction as the event's effects.
 * A concurrent delivery of the same ID waits on that row and then finds it taken (duplicate);
 * a failure rolls back both the effects and the mark, so the processor's retry applies it.
 */
export async function applyProcessorEvent(db: Db, event: Stripe.Event, processor: PaymentProcessor): Promise<ApplyResult> {
  // Own keys only: a type such as `constructor` or `__proto__` must not find Object.prototype's members.
  if (!Object.hasOwn(EVENT_HANDLERS, event.type)) return "unhandled";
  const handler = EVENT_HANDLERS[event.type] as EventHandler<Stripe.Event, unknown>;
  const prepared = handler.prepare ? await handler.prepare(event, processor) : undefined;
  return db.transaction(async (tx) => {
    const [fresh] = await tx
      .insert(processedEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: processedEvents.id });
    if (!fresh) return "duplicate";
    return handler.apply(tx, event, prepared);
  });
}
