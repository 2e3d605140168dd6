/**
 * The app's processor event factory (lib/processor/event-factory.ts) against the recorded Stripe
 * events in tests/fixtures/processor: each event it makes uses Stripe's keys at Stripe's paths
 * (nothing invented), carries every field the event handlers read, and is signed so the webhook
 * endpoint's own check accepts it.
 */
import { describe, expect, it } from "vitest";
import * as factory from "@/lib/processor/event-factory";
import { webhookVerifier } from "@/lib/processor/webhook-signature";
import accountUpdated from "../fixtures/processor/account.updated.json";
import chargeDisputeClosed from "../fixtures/processor/charge.dispute.closed.json";
import chargeDisputeCreated from "../fixtures/processor/charge.dispute.created.json";
import chargeRefunded from "../fixtures/processor/charge.refunded.json";
import chargeSucceeded from "../fixtures/processor/charge.succeeded.json";
import invoicePaymentFailed from "../fixtures/processor/invoice.payment_failed.json";
import customerSubscriptionDeleted from "../fixtures/processor/customer.subscription.deleted.json";
import invoicePaymentSucceeded from "../fixtures/processor/invoice.payment_succeeded.json";
import invoicePaymentSucceededLegacy from "../fixtures/processor/invoice.payment_succeeded.legacy.json";
import paymentIntentCanceled from "../fixtures/processor/payment_intent.canceled.json";
import paymentIntentPaymentFailed from "../fixtures/processor/payment_intent.payment_failed.json";
import paymentIntentSucceeded from "../fixtures/processor/payment_intent.succeeded.json";
import payoutFailed from "../fixtures/processor/payout.failed.json";
import payoutPaid from "../fixtures/processor/payout.paid.json";
import setupIntentSucceeded from "../fixtures/processor/setup_intent.succeeded.json";

const intent = {
  paymentIntentId: "pi_1",
  amountCents: 5000,
  currency: "usd",
  chargeId: "ch_1",
  destination: "acct_1",
  metadata: { donationId: "don_1" },
};
const dispute = { disputeId: "du_1", chargeId: "ch_1", paymentIntentId: "pi_1", amountCents: 5000, currency: "usd", dueBy: 1_800_000_000 };
const invoice = {
  invoiceId: "in_1",
  subscriptionId: "sub_1",
  billingReason: "subscription_cycle",
  amountPaidCents: 2500,
  currency: "usd",
  paymentIntentId: "pi_1",
  chargeId: "ch_1",
};
const payout = { account: "acct_1", payoutId: "po_1", amountCents: 48_250, currency: "usd" };

/** Each factory event, the recorded event of its type, and the paths (below `data.object`) its handler reads. */
const CASES: { name: string; made: unknown; recorded: unknown; reads: string[]; envelope?: string[] }[] = [
  {
    name: "setup_intent.succeeded",
    made: factory.setupIntentSucceeded({
      setupIntentId: "seti_1",
      customerId: "cus_1",
      paymentMethodId: "pm_1",
      metadata: { planId: "rp_1", subscriptionId: "sub_1" },
    }),
    recorded: setupIntentSucceeded,
    reads: ["id", "status", "payment_method", "metadata.planId", "metadata.subscriptionId"],
  },
  {
    name: "payment_intent.succeeded",
    made: factory.paymentIntentSucceeded(intent),
    recorded: paymentIntentSucceeded,
    reads: ["id", "metadata.donationId", "latest_charge", "amount_received"],
  },
  {
    name: "payment_intent.payment_failed",
    made: factory.paymentIntentPaymentFailed(intent),
    recorded: paymentIntentPaymentFailed,
    reads: ["id", "metadata.donationId", "last_payment_error.message", "last_payment_error.code"],
  },
  {
    name: "payment_intent.canceled",
    made: factory.paymentIntentCanceled({ ...intent, cancellationReason: "abandoned" }),
    recorded: paymentIntentCanceled,
    reads: ["id", "metadata.donationId", "cancellation_reason"],
  },
  {
    name: "invoice.payment_succeeded",
    made: factory.invoicePaymentSucceeded(invoice),
    recorded: invoicePaymentSucceeded,
    reads: [
      "id",
      "billing_reason",
      "amount_paid",
      "currency",
      "parent.subscription_details.subscription",
      "payments.data.0.payment.payment_intent",
      "payments.data.0.payment.charge",
    ],
  },
  {
    name: "invoice.payment_succeeded (legacy shape)",
    made: factory.invoicePaymentSucceeded({ ...invoice, shape: "legacy" }),
    recorded: invoicePaymentSucceededLegacy,
    reads: ["id", "billing_reason", "amount_paid", "currency", "subscription", "payment_intent", "charge"],
  },
  {
    name: "customer.subscription.deleted",
    made: factory.customerSubscriptionDeleted({ subscriptionId: "sub_1" }),
    recorded: customerSubscriptionDeleted,
    reads: ["id"],
  },
  {
    name: "charge.refunded",
    made: factory.chargeRefunded({ chargeId: "ch_1", paymentIntentId: "pi_1", amountCents: 5000, currency: "usd" }),
    recorded: chargeRefunded,
    reads: ["id", "payment_intent", "amount", "amount_refunded", "refunded"],
  },
  {
    name: "charge.succeeded",
    made: factory.chargeSucceeded({
      chargeId: "ch_1",
      paymentIntentId: "pi_1",
      amountCents: 5000,
      currency: "usd",
      card: { brand: "visa", last4: "4242", expMonth: 3, expYear: 2027 },
    }),
    recorded: chargeSucceeded,
    reads: [
      "payment_intent",
      "created",
      "payment_method_details.card.exp_month",
      "payment_method_details.card.exp_year",
      "payment_method_details.card.last4",
    ],
  },
  {
    name: "invoice.payment_failed",
    made: factory.invoicePaymentFailed({
      invoiceId: "in_1",
      subscriptionId: "sub_1",
      amountDueCents: 2500,
      currency: "usd",
      attemptCount: 2,
      nextPaymentAttempt: 1_770_163_490,
    }),
    recorded: invoicePaymentFailed,
    reads: [
      "id",
      "parent.subscription_details.subscription",
      "billing_reason",
      "amount_due",
      "currency",
      "attempt_count",
      "next_payment_attempt",
    ],
  },
  {
    name: "charge.dispute.created",
    made: factory.chargeDisputeCreated(dispute),
    recorded: chargeDisputeCreated,
    reads: ["id", "payment_intent", "charge", "reason", "amount", "currency", "evidence_details.due_by"],
  },
  {
    name: "charge.dispute.closed",
    made: factory.chargeDisputeClosed({ ...dispute, status: "won" }),
    recorded: chargeDisputeClosed,
    reads: ["id", "payment_intent", "charge", "status"],
  },
  {
    name: "account.updated",
    made: factory.accountUpdated({ accountId: "acct_1", chargesEnabled: true, payoutsEnabled: true }),
    recorded: accountUpdated,
    reads: ["id", "charges_enabled", "payouts_enabled"],
    envelope: ["account"],
  },
  {
    name: "payout.paid",
    made: factory.payoutPaid(payout),
    recorded: payoutPaid,
    reads: ["id", "amount", "currency", "status", "arrival_date", "failure_message"],
    envelope: ["account"],
  },
  {
    name: "payout.failed",
    made: factory.payoutFailed(payout),
    recorded: payoutFailed,
    reads: ["id", "amount", "currency", "status", "arrival_date", "failure_message"],
    envelope: ["account"],
  },
];

const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Paths in `made` that `recorded` lacks, or holds a value of another kind at (null on either side goes with anything). */
function foreignPaths(made: unknown, recorded: unknown, at = ""): string[] {
  if (made === null || recorded === null || recorded === undefined) return recorded === undefined ? [at] : [];
  if (kind(made) !== kind(recorded)) return [`${at} (${kind(made)}, recorded ${kind(recorded)})`];
  if (Array.isArray(made)) return made.flatMap((item, i) => foreignPaths(item, (recorded as unknown[])[0], `${at}.${i}`));
  if (typeof made !== "object") return [];
  // `metadata` holds our own keys, not Stripe's.
  if (at.endsWith("metadata")) return [];
  return Object.entries(made as Record<string, unknown>).flatMap(([key, value]) =>
    foreignPaths(value, (recorded as Record<string, unknown>)[key], at ? `${at}.${key}` : key),
  );
}

function valueAt(root: unknown, path: string): unknown {
  return path
    .split(".")
    .reduce<unknown>((v, key) => (v === null || v === undefined ? undefined : (v as Record<string, unknown>)[key]), root);
}

describe("lib/processor/event-factory", () => {
  it.each(CASES)("$name uses only keys the recorded Stripe event has, with values of the same kind", ({ made, recorded }) => {
    expect(foreignPaths(made, recorded)).toEqual([]);
  });

  it.each(CASES)("$name carries every field its handler reads, where the recorded event has it", ({ made, recorded, reads, envelope }) => {
    for (const path of reads) {
      expect(valueAt(recorded, `data.object.${path}`), `recorded data.object.${path}`).not.toBeUndefined();
      expect(valueAt(made, `data.object.${path}`), `made data.object.${path}`).not.toBeUndefined();
    }
    for (const path of ["id", "type", "created", "api_version", ...(envelope ?? [])]) {
      expect(valueAt(made, path), path).not.toBeUndefined();
      expect(valueAt(made, path), path).toBeTypeOf(typeof valueAt(recorded, path) as "string");
    }
    expect((made as { type: string }).type).toBe((recorded as { type: string }).type);
  });

  it("signs an event so the webhook endpoint's check accepts it, and only with the secret it was signed with", async () => {
    const event = factory.paymentIntentSucceeded(intent);
    const { payload, signature } = factory.signedEvent(event, "whsec_factory_test");
    const verifier = webhookVerifier().webhooks;
    await expect(verifier.constructEventAsync(payload, signature, "whsec_factory_test", 300)).resolves.toMatchObject({
      id: event.id,
      type: "payment_intent.succeeded",
    });
    await expect(verifier.constructEventAsync(payload, signature, "whsec_other", 300)).rejects.toThrow();
  });
});
