/**
 * Words for the operations pages: statuses, timeline events, email templates, donor names.
 * Plain data and functions, usable from server and client components alike.
 */
import { ERASED_DONOR_LABEL, isErasedEmail } from "@/lib/donor-erasure";

export type BadgeTone = "ok" | "pending" | "danger" | "role" | "draft";
type Labelled = { label: string; tone: BadgeTone };

export const DONATION_STATUS: Record<string, Labelled> = {
  PENDING: { label: "Pending", tone: "pending" },
  SUCCEEDED: { label: "Succeeded", tone: "ok" },
  FAILED: { label: "Failed", tone: "danger" },
  DISPUTED: { label: "Disputed", tone: "danger" },
  REFUNDED: { label: "Refunded", tone: "draft" },
  VOIDED: { label: "Voided", tone: "draft" },
};

export const DONATION_STATUS_OPTIONS = [
  { value: "", label: "Any status" },
  { value: "SUCCEEDED", label: "Succeeded" },
  { value: "PENDING", label: "Pending" },
  { value: "FAILED", label: "Failed" },
  { value: "DISPUTED", label: "Disputed" },
  { value: "REFUNDED", label: "Refunded" },
  { value: "VOIDED", label: "Voided" },
];

/** How a gift recorded by staff was paid (the API's `method`, card gifts aside). */
export const OFFLINE_METHOD_OPTIONS = [
  { value: "CHEQUE", label: "Cheque" },
  { value: "CASH", label: "Cash" },
  { value: "BANK_TRANSFER", label: "Bank transfer" },
  { value: "DAF", label: "Donor-advised fund grant" },
  { value: "STOCK", label: "Stock" },
  { value: "IN_KIND", label: "Gift in kind" },
  { value: "OTHER", label: "Other" },
];

/** A gift's `method` in words. */
export const methodLabel = (method: string) =>
  method === "CARD" ? "Card" : (OFFLINE_METHOD_OPTIONS.find((o) => o.value === method)?.label ?? method);

export const PLAN_STATUS: Record<string, Labelled> = {
  ACTIVE: { label: "Active", tone: "ok" },
  PAST_DUE: { label: "Past due", tone: "pending" },
  INCOMPLETE: { label: "Incomplete", tone: "draft" },
  CANCELED: { label: "Canceled", tone: "draft" },
};

export const INTERVAL_LABEL: Record<string, string> = { WEEK: "Weekly", MONTH: "Monthly", QUARTER: "Quarterly", YEAR: "Yearly" };
export const PER_INTERVAL: Record<string, string> = { WEEK: "/ week", MONTH: "/ month", QUARTER: "/ quarter", YEAR: "/ year" };
/** "Every month": how often a recurring gift is charged. */
export const EVERY_INTERVAL: Record<string, string> = {
  WEEK: "Every week",
  MONTH: "Every month",
  QUARTER: "Every three months",
  YEAR: "Every year",
};

export const EMAIL_TEMPLATE_LABEL: Record<string, string> = {
  receipt: "Donation receipt",
  "admin-notification": "New donation alert",
  tribute: "Tribute notice",
  milestone: "Milestone alert",
  "dispute-alert": "Dispute alert",
  "magic-link": "Sign-in link",
  "refund-confirmation": "Refund confirmation",
  "member-invitation": "Member invitation",
  "donor-erasure-request": "Donor erasure request",
  "security-notice": "Account security notice",
  "plan-payment-issue": "Recurring gift payment notice",
  "unfinished-gift": "Unfinished gift reminder",
};

export const templateLabel = (t: string) => EMAIL_TEMPLATE_LABEL[t] ?? t;

/**
 * An email's status in words. Without an email provider the worker marks a kept email SENT
 * (it is done with it), so "Sent" would be untrue there: it reads "Kept here".
 */
export function emailStatus(status: string, delivering: boolean): Labelled {
  if (status === "SENT") return delivering ? { label: "Sent", tone: "ok" } : { label: "Kept here", tone: "role" };
  if (status === "FAILED") return { label: "Failed", tone: "danger" };
  return { label: "Pending", tone: "pending" };
}

/** A donor's name, or their email without one; "Donor without email" when neither is known (an offline gift). */
export function donorName(d: { firstName: string | null; lastName: string | null; email: string | null }): string {
  if (d.email && isErasedEmail(d.email)) return ERASED_DONOR_LABEL;
  const name = [d.firstName, d.lastName].filter(Boolean).join(" ").trim();
  return name || d.email || "Donor without email";
}

/** The email to show beside a donor's name: none when the name is the email, or for an erased donor (their address is a placeholder). */
export function donorEmailLine(d: { firstName: string | null; lastName: string | null; email: string | null }): string | null {
  return !d.email || isErasedEmail(d.email) || donorName(d) === d.email ? null : d.email;
}

/** A donor's email as a label: "Erased donor" in place of an erased donor's placeholder, "Donor without email" for none. */
export const donorEmailLabel = (email: string | null): string =>
  email === null ? "Donor without email" : isErasedEmail(email) ? ERASED_DONOR_LABEL : email;

/** "One-time", "Monthly (first gift)", "Monthly renewal": what kind of gift a donation is. */
export function giftKind(d: { recurringInterval: string | null; isRenewal: boolean }): { label: string; recurring: boolean } {
  if (!d.recurringInterval) return { label: "One-time", recurring: false };
  const every = INTERVAL_LABEL[d.recurringInterval] ?? d.recurringInterval;
  return { label: d.isRenewal ? `${every} renewal` : `${every}, first gift`, recurring: true };
}

const EVENT_LABEL: Record<string, string> = {
  "donation.created": "Checkout started",
  "payment.retried": "Donor tried paying again",
  "donation.abandoned": "Abandoned: payment processor unavailable",
  "checkout.abandoned": "Abandoned: never paid, payment canceled",
  "ticket_hold.expired": "Ticket hold expired, payment canceled",
  "payment_intent.succeeded": "Payment succeeded",
  "payment_intent.payment_failed": "Payment failed",
  "invoice.payment_succeeded": "Recurring payment succeeded",
  "invoice.payment_failed": "Recurring payment failed",
  "refund.requested": "Refund requested from the dashboard",
  "refund.created": "Refund accepted by the payment processor",
  "charge.refunded": "Refunded",
  "charge.dispute.created": "Dispute opened by the card holder",
  "charge.dispute.closed": "Dispute closed",
};

/** A timeline event's headline: its own words, or the event type when it is one we don't know. */
export function eventLabel(type: string, data: Record<string, unknown>): string {
  if (type === "charge.dispute.closed") {
    const r = String(data.resolution ?? "");
    if (r === "won") return "Dispute won: the money stays";
    if (r === "lost") return "Dispute lost: the money went back";
  }
  return EVENT_LABEL[type] ?? type;
}

const STATUS_WORD: Record<string, string> = {
  PENDING: "Pending",
  SUCCEEDED: "Succeeded",
  FAILED: "Failed",
  DISPUTED: "Disputed",
  REFUNDED: "Refunded",
};

/** "Pending → Succeeded" when the event moved the donation, else null. */
export function statusChange(data: Record<string, unknown>): string | null {
  const from = typeof data.from === "string" ? data.from : null;
  const to = typeof data.to === "string" ? data.to : null;
  if (!from || !to || from === to) return null;
  return `${STATUS_WORD[from] ?? from} → ${STATUS_WORD[to] ?? to}`;
}

/** A group of outbound webhook event types, each labelled by its verb: "donation.succeeded" is "Succeeded". */
function eventGroup(label: string, types: string[]) {
  const verbOf = (type: string) => type.slice(type.indexOf(".") + 1);
  return { label, types: types.map((value) => ({ value, label: verbOf(value).charAt(0).toUpperCase() + verbOf(value).slice(1) })) };
}

export const WEBHOOK_EVENT_GROUPS: { label: string; types: { value: string; label: string }[] }[] = [
  eventGroup("Donations", ["donation.succeeded", "donation.failed", "donation.disputed", "donation.refunded"]),
  eventGroup("Recurring plans", [
    "recurring_plan.created",
    "recurring_plan.canceled",
    "recurring_plan.past_due",
    "recurring_plan.recovered",
  ]),
  eventGroup("Campaigns", ["campaign.created", "campaign.updated", "campaign.published", "campaign.ended"]),
  eventGroup("Payouts", ["payout.paid", "payout.failed"]),
  eventGroup("Donors", ["donor.erased"]),
];
