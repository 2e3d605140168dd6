import type Stripe from "stripe";
import type { Tx } from "@/db";
import type { PaymentProcessor } from "@/lib/processor/types";
import type { EventOutcome, EventSource } from "../event-outcome";

export type HandlerOutcome = EventOutcome;

/**
 * One processor event type: a translation of the processor's event object into a service call.
 * `prepare` runs before the transaction and may call the processor (network); `apply` runs
 * inside the transaction that also records the event as processed, so the event's effects and
 * that mark commit together or not at all.
 */
export type EventHandler<E extends Stripe.Event = Stripe.Event, P = undefined> = {
  prepare?: (event: E, processor: PaymentProcessor) => Promise<P>;
  apply: (tx: Tx, event: E, prepared: P) => Promise<HandlerOutcome>;
};

/** An ID from an expandable field: either the ID string or the expanded object's `id`. */
export function idOf(v: string | { id: string } | null | undefined): string | null {
  if (!v) return null;
  return typeof v === "string" ? v : v.id;
}

/**
 * A handler whose whole work is one service call inside the transaction: `input` reads the
 * event's object into the service's input, and the event is the change's source.
 */
export function callService<E extends Stripe.Event, I>(
  service: (tx: Tx, source: EventSource, input: I) => Promise<HandlerOutcome>,
  input: (object: E["data"]["object"]) => I,
): EventHandler<E> {
  return { apply: (tx, event) => service(tx, event, input(event.data.object)) };
}

/** The PaymentIntent an event is about, and the donation its metadata names (if any). */
export function intentOf(pi: Stripe.PaymentIntent): { paymentIntentId: string; donationId: string | null } {
  return { paymentIntentId: pi.id, donationId: pi.metadata?.donationId ?? null };
}
