import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { memberships } from "@/db/schema";
import { enqueueEmail } from "@/lib/email/enqueue";
import type { SecurityNoticeProps } from "@/lib/email/types";
import { getEnv } from "@/lib/env";
import type { AuditAction } from "@/lib/schemas/audit-log";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/**
 * An account's security event (a factor turned on or off, a wrong code, a session signed out),
 * recorded in the audit log of every organization the user belongs to: the audit log is kept
 * per organization, and each organization's admins should see what happens to the accounts that
 * can act on it. Call it in the transaction of the change. A user in no organization has nothing
 * an organization must audit.
 */
export async function recordAccountEvent(
  tx: DbOrTx,
  audit: AuditContext,
  userId: string,
  action: AuditAction,
  data: Record<string, unknown> = {},
): Promise<void> {
  const orgs = await tx.select({ orgId: memberships.orgId }).from(memberships).where(eq(memberships.userId, userId));
  for (const { orgId } of orgs) {
    await recordAudit(tx, audit, { orgId, action, target: { type: "member", id: userId }, data });
  }
}

/** The dashboard's Security page, where a user reviews sessions and factors. */
export function securityPageUrl(): string {
  return `${getEnv().appUrl}/dashboard/security`;
}

/** Queues a security notice to the user (in the caller's transaction); `dedupeKey` makes it at most once. */
export async function notifyAccount(
  tx: DbOrTx,
  notice: Omit<SecurityNoticeProps, "securityUrl" | "at"> & { at?: Date },
  dedupeKey: string,
): Promise<void> {
  const { at, ...rest } = notice;
  await enqueueEmail(tx, {
    template: "security-notice",
    to: notice.email,
    props: { ...rest, at: (at ?? new Date()).toISOString(), securityUrl: securityPageUrl() },
    dedupeKey,
    orgId: null,
  });
}
