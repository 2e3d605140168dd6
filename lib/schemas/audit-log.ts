import { z } from "zod";
import type { AuditCursor } from "@/db/queries/audit-log";
import type { AuditEntry } from "@/db/schema";
import { iso } from "./common";
import { cursorPaginationSchema } from "./donations";

/** The staff changes the audit log records, by their stable dotted names. */
export const AUDIT_ACTIONS = [
  "campaign.created",
  "campaign.updated",
  "campaign.status_changed",
  "campaign.deleted",
  "donation.refunded",
  "donation.recorded",
  "donation.corrected",
  "donation.voided",
  "recurring_plan.canceled",
  "member.added",
  "member.role_changed",
  "member.removed",
  "api_key.created",
  "api_key.revoked",
  "webhook_endpoint.created",
  "webhook_endpoint.updated",
  "webhook_endpoint.deleted",
  "webhook_endpoint.secret_rotated",
  "organization.updated",
  "organization.two_factor_requirement_changed",
  "organization.custom_domain_verified",
  "payouts.onboarding_started",
  "statements.sent",
  "donor.exported",
  "donor.erased",
  "donor.updated",
  "donor.merged",
  "donor_request.rejected",
  "import.committed",
  "import.undone",
  "subscriptions.adopted",
  "two_factor.enabled",
  "two_factor.disabled",
  "two_factor.challenge_failed",
  "two_factor.recovery_codes_regenerated",
  "passkey.added",
  "passkey.removed",
  "session.revoked",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry is about; a member's target ID is their user ID. */
export const AUDIT_TARGET_TYPES = [
  "campaign",
  "donation",
  "recurring_plan",
  "member",
  "api_key",
  "webhook_endpoint",
  "organization",
  "donor",
  "donor_request",
  "import",
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_ACTOR_TYPES = ["user", "api_key", "donor"] as const;

export function encodeAuditCursor(c: AuditCursor): string {
  return Buffer.from(JSON.stringify({ id: String(c.id) }), "utf8").toString("base64url");
}

export function decodeAuditCursor(raw: string): AuditCursor | null {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(raw)) return null;
  try {
    const v = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown;
    if (typeof v !== "object" || v === null) return null;
    const { id } = v as Record<string, unknown>;
    if (typeof id !== "string" || !/^[1-9]\d{0,15}$/.test(id)) return null;
    return { id: Number(id) };
  } catch {
    return null;
  }
}

export const AUDIT_LOG_DEFAULT_LIMIT = 25;

export const listAuditLogQuery = z.object({
  action: z.enum(AUDIT_ACTIONS).optional().meta({ description: "Only entries of this action." }),
  actor: z.string().min(1).max(100).optional().meta({ description: "Only entries by this actor: a user's ID or an API key's ID." }),
  limit: z.coerce.number().int().min(1).max(100).default(AUDIT_LOG_DEFAULT_LIMIT),
  cursor: z
    .string()
    .meta({ description: "`nextCursor` of the previous page (opaque); absent for the first page." })
    .transform((s, ctx) => {
      const cursor = decodeAuditCursor(s);
      if (!cursor) {
        ctx.addIssue({ code: "custom", message: "Invalid cursor" });
        return z.NEVER;
      }
      return cursor;
    })
    .optional(),
});

export const auditEntrySchema = z
  .object({
    id: z.string(),
    action: z.enum(AUDIT_ACTIONS),
    actor: z
      .object({
        type: z.enum(AUDIT_ACTOR_TYPES),
        id: z.string(),
        label: z.string().nullable().meta({ description: "The user's email or the key's name when the change was made." }),
      })
      .meta({ id: "AuditActor" }),
    target: z
      .object({
        type: z.enum(AUDIT_TARGET_TYPES),
        id: z.string().nullable(),
      })
      .meta({ id: "AuditTarget" }),
    data: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "What changed: field names with their new values (`from` where a status or role changed). Never a secret." }),
    requestId: z.string().nullable().meta({ description: "The `X-Request-Id` of the request that made the change." }),
    clientIp: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "AuditEntry" });

export type AuditEntryView = z.output<typeof auditEntrySchema>;

export const auditLogListSchema = z.object({ data: z.array(auditEntrySchema), pagination: cursorPaginationSchema });

export const serializeAuditEntry = (e: AuditEntry): AuditEntryView => ({
  id: String(e.id),
  action: e.action as AuditAction,
  actor: { type: e.actorType as (typeof AUDIT_ACTOR_TYPES)[number], id: e.actorId, label: e.actorLabel },
  target: { type: e.targetType as AuditTargetType, id: e.targetId },
  data: e.data ?? null,
  requestId: e.requestId,
  clientIp: e.clientIp,
  createdAt: iso(e.createdAt)!,
});
