import { randomBytes } from "node:crypto";

/**
 * The processor's events for a sandbox gift, as the property-based invariant tests send them:
 * every kind a one-time or recurring gift can receive, each as a fresh event ID.
 */
export type Kind = "succeeded" | "failed" | "disputeCreated" | "disputeWon" | "disputeLost" | "refunded" | "invoiceCreate" | "invoiceCycle";
export const ONE_TIME_KINDS: Kind[] = ["succeeded", "failed", "disputeCreated", "disputeWon", "disputeLost", "refunded"];
export const RECURRING_KINDS: Kind[] = [
  "invoiceCreate",
  "invoiceCycle",
  "succeeded",
  "failed",
  "disputeCreated",
  "disputeWon",
  "disputeLost",
  "refunded",
];

export type Gift = { id: string; amount: number; paymentIntentId: string; subscriptionId: string | null; chargeId: string };

const envelope = (type: string, object: Record<string, unknown>) => ({
  id: `evt_prop_${randomBytes(10).toString("hex")}`,
  object: "event",
  api_version: "2026-10-28.endive",
  created: Math.floor(Date.now() / 1000),
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type,
  data: { object },
});

export function eventFor(kind: Kind, g: Gift, invoiceNo: number) {
  const pi = (status: string, extra = {}) => ({
    id: g.paymentIntentId,
    object: "payment_intent",
    amount: g.amount,
    amount_received: status === "succeeded" ? g.amount : 0,
    currency: "usd",
    status,
    latest_charge: g.chargeId,
    metadata: g.subscriptionId ? {} : { donationId: g.id },
    ...extra,
  });
  const dispute = (status: string) => ({
    id: `dp_${g.id}`,
    object: "dispute",
    amount: g.amount,
    currency: "usd",
    reason: "fraudulent",
    status,
    // Half the disputes name only the charge, as Stripe's may.
    payment_intent: invoiceNo % 2 === 0 ? g.paymentIntentId : null,
    charge: g.chargeId,
    evidence_details: { due_by: Math.floor(Date.now() / 1000) + 7 * 86400 },
  });
  const invoice = (reason: string, id: string) => ({
    id,
    object: "invoice",
    billing_reason: reason,
    amount_paid: g.amount,
    currency: "usd",
    status: "paid",
    parent: { type: "subscription_details", subscription_details: { subscription: g.subscriptionId } },
  });
  switch (kind) {
    case "succeeded":
      return envelope("payment_intent.succeeded", pi("succeeded"));
    case "failed":
      return envelope(
        "payment_intent.payment_failed",
        pi("requires_payment_method", { last_payment_error: { code: "card_declined", message: "Your card was declined." } }),
      );
    case "disputeCreated":
      return envelope("charge.dispute.created", dispute("needs_response"));
    case "disputeWon":
      return envelope("charge.dispute.closed", dispute("won"));
    case "disputeLost":
      return envelope("charge.dispute.closed", dispute("lost"));
    case "refunded":
      return envelope("charge.refunded", {
        id: g.chargeId,
        object: "charge",
        amount: g.amount,
        amount_refunded: g.amount,
        refunded: true,
        payment_intent: g.paymentIntentId,
      });
    case "invoiceCreate":
      return envelope("invoice.payment_succeeded", invoice("subscription_create", `in_first_${g.id}`));
    case "invoiceCycle":
      // A small pool of invoice numbers: the same invoice arrives under several event IDs.
      return envelope("invoice.payment_succeeded", invoice("subscription_cycle", `in_cycle_${g.id}_${invoiceNo % 3}`));
  }
}
