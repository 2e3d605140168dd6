/**
 * Words for the audit log page: each action's name, what its target links to, and a short
 * reading of an entry's `data`. Plain data and functions, for server and client components alike
 * (only types come from the API's schemas, so no validation code reaches the browser).
 */
import { formatMoney } from "@/lib/money";
import type { AuditAction } from "@/lib/schemas/audit-log";

export const AUDIT_ACTION_LABEL: Record<AuditAction, string> = {
  "campaign.created": "Campaign created",
  "campaign.updated": "Campaign edited",
  "campaign.status_changed": "Campaign status changed",
  "campaign.deleted": "Campaign deleted",
  "donation.refunded": "Donation refunded",
  "donation.recorded": "Offline gift recorded",
  "donation.corrected": "Gift corrected",
  "donation.voided": "Gift voided",
  "recurring_plan.canceled": "Recurring plan canceled",
  "member.added": "Member added",
  "member.role_changed": "Member role changed",
  "member.removed": "Member removed",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "webhook_endpoint.created": "Webhook endpoint added",
  "webhook_endpoint.updated": "Webhook endpoint changed",
  "webhook_endpoint.deleted": "Webhook endpoint deleted",
  "webhook_endpoint.secret_rotated": "Webhook secret rotated",
  "organization.updated": "Settings changed",
  "organization.two_factor_requirement_changed": "Two-factor requirement changed",
  "organization.custom_domain_verified": "Custom domain verified",
  "payouts.onboarding_started": "Payout setup started",
  "statements.sent": "Year-end statements sent",
  "donor.exported": "Donor data exported",
  "donor.erased": "Donor erased",
  "donor.updated": "Donor edited",
  "donor.merged": "Donors merged",
  "donor_request.rejected": "Donor erasure request rejected",
  "import.committed": "Import started",
  "import.undone": "Import undone",
  "subscriptions.adopted": "Subscriptions adopted",
  "two_factor.enabled": "Two-factor turned on",
  "two_factor.disabled": "Two-factor turned off",
  "two_factor.challenge_failed": "Wrong two-factor code",
  "two_factor.recovery_codes_regenerated": "Recovery codes replaced",
  "passkey.added": "Passkey added",
  "passkey.removed": "Passkey removed",
  "session.revoked": "Session signed out",
};

export const auditActionLabel = (action: string) => AUDIT_ACTION_LABEL[action as AuditAction] ?? action;

const TARGET_NOUN: Record<string, string> = {
  campaign: "Campaign",
  donation: "Donation",
  recurring_plan: "Recurring plan",
  member: "Member",
  api_key: "API key",
  webhook_endpoint: "Webhook endpoint",
  organization: "Organization",
  donor: "Donor",
  donor_request: "Donor request",
  import: "Import",
};

export const targetNoun = (type: string) => TARGET_NOUN[type] ?? type;

/**
 * Where an entry's target can be seen now (its own page, or the list it belongs to), or null
 * when it is gone (a deleted campaign or endpoint).
 */
export function targetHref(orgSlug: string, action: string, target: { type: string; id: string | null }): string | null {
  const base = `/dashboard/${orgSlug}`;
  const id = target.id ? encodeURIComponent(target.id) : null;
  if (action.endsWith(".deleted")) return null;
  switch (target.type) {
    case "campaign":
      return id ? `${base}/campaigns/${id}` : null;
    case "donation":
      return id ? `${base}/donations/${id}` : null;
    case "recurring_plan":
      return `${base}/recurring`;
    case "member":
      return action === "member.removed" ? null : `${base}/members`;
    case "api_key":
      return `${base}/api-access`;
    case "webhook_endpoint":
      return id ? `${base}/webhooks/${id}` : null;
    case "organization":
      return action === "payouts.onboarding_started" ? `${base}/settings/payouts` : `${base}/settings`;
    case "donor":
      return id ? `${base}/donors/${id}` : null;
    case "donor_request":
      return `${base}/donors`;
    case "import":
      return `${base}/imports`;
    default:
      return null;
  }
}

/** What names the target best in the entry itself (a title, an email, a URL), if anything. */
export function targetName(data: Record<string, unknown> | null): string | null {
  if (!data) return null;
  // An edit names its target only when the name itself changed.
  const changes = data.changes && typeof data.changes === "object" ? (data.changes as Record<string, unknown>) : {};
  for (const source of [data, changes]) {
    for (const k of ["title", "email", "name", "url"]) if (typeof source[k] === "string" && source[k]) return source[k];
  }
  return null;
}

const MAX_VALUE = 80;

function show(value: unknown): string {
  const text = typeof value === "string" ? value : value === null ? "none" : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}…` : text;
}

/** The words for the fields entries record; any other field reads as its name in words ("goalAmountCents" → "Goal amount"). */
const FIELD_LABEL: Record<string, string> = {
  runId: "Run",
  resend: "Sent again",
  queued: "Statements queued",
  year: "Year",
  subscriptionId: "Subscription",
  canceledBy: "Canceled by",
  processorAccountId: "Payout account",
  customDomain: "Custom domain",
  requireTwoFactor: "Two-factor required",
  refundId: "Refund",
  amountCents: "Amount",
  donorId: "Donor",
  eventTypes: "Events",
  url: "URL",
  slug: "Link name",
  recurringPlans: "Recurring plans",
};

export function fieldLabel(key: string): string {
  const known = FIELD_LABEL[key];
  if (known) return known;
  const words = key
    .replace(/Cents$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_.]+/g, " ")
    .toLowerCase()
    .replace(/\b(id|url|ip)\b/g, (w) => w.toUpperCase());
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function showValue(key: string, value: unknown, data: Record<string, unknown>): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (key.endsWith("Cents") && typeof value === "number" && typeof data.currency === "string") return formatMoney(value, data.currency);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return show(value.join(", "));
  return show(value);
}

/**
 * An entry's `data` as short "Field: value" lines in words (never the raw keys), a change of
 * status or role as "from → to".
 */
export function auditDetails(data: Record<string, unknown> | null): string[] {
  if (!data) return [];
  const out: string[] = [];
  if ("from" in data) out.push(`${show(data.from)} → ${show(data.to ?? data.role)}`);
  const changes = data.changes && typeof data.changes === "object" ? (data.changes as Record<string, unknown>) : null;
  const fields =
    changes ??
    Object.fromEntries(
      Object.entries(data).filter(([k]) => !["from", "to", "changes", "currency"].includes(k) && !("from" in data && k === "role")),
    );
  for (const [k, v] of Object.entries(fields)) out.push(`${fieldLabel(k)}: ${showValue(k, v, data)}`);
  return out;
}
