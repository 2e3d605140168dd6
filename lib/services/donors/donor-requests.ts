import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { findDonorRequest, findPendingErasureRequest, type DonorRequest } from "@/db/queries/donor-requests";
import { donorRequests, memberships, users, type Donor, type Organization } from "@/db/schema";
import { enqueueEmails } from "@/lib/email/enqueue";
import { getEnv } from "@/lib/env";
import { conflict, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { PaymentProcessor } from "@/lib/processor/types";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";
import { eraseDonor } from "./erase-donor";

/** Who hears of a pending erasure request: the organization's notification address, else its owners and admins. */
async function staffRecipients(db: Db, org: Organization): Promise<string[]> {
  if (org.notificationEmail) return [org.notificationEmail];
  const rows = await db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.orgId, org.id), inArray(memberships.role, ["OWNER", "ADMIN"])));
  return [...new Set(rows.map((r) => r.email.toLowerCase()))];
}

/** The audit log is append-only, so a donor erasing themselves is named by role, never by name or email. */
const DONOR_ACTOR_LABEL = "The donor, from their account";

export type ErasureRequestOutcome = { status: "ERASED"; requestId: string } | { status: "PENDING"; requestId: string };

/**
 * A donor asks, from their account, to have their personal data erased. When the organization
 * does not review such requests (`donor_erasure_needs_approval` false) the donor is erased now,
 * with themselves as the audit entry's actor; otherwise the request waits as PENDING (one per
 * donor: asking again answers the same request) and staff are told by email, once.
 */
export async function requestErasure(
  db: Db,
  processor: PaymentProcessor,
  org: Organization,
  donor: Donor,
  ctx: { requestId: string; clientIp: string },
): Promise<ErasureRequestOutcome> {
  if (!org.donorErasureNeedsApproval) {
    const [request] = await db
      .insert(donorRequests)
      .values({ id: newId("dreq"), orgId: org.id, donorId: donor.id, kind: "ERASURE" })
      .returning();
    await eraseDonor(
      db,
      processor,
      org.id,
      donor.id,
      { actor: { type: "donor", id: donor.id, label: DONOR_ACTOR_LABEL }, requestId: ctx.requestId, clientIp: ctx.clientIp },
      { requestId: request.id },
    );
    return { status: "ERASED", requestId: request.id };
  }
  const existing = await findPendingErasureRequest(db, donor.id);
  if (existing) return { status: "PENDING", requestId: existing.id };
  const recipients = await staffRecipients(db, org);
  return db.transaction(async (tx) => {
    // One pending request per donor, even when two arrive at once: the donor row is the lock.
    await tx.execute(sql`select 1 from donors where id = ${donor.id} for update`);
    const again = await findPendingErasureRequest(tx, donor.id);
    if (again) return { status: "PENDING" as const, requestId: again.id };
    const [request] = await tx
      .insert(donorRequests)
      .values({ id: newId("dreq"), orgId: org.id, donorId: donor.id, kind: "ERASURE" })
      .returning();
    const donorName = [donor.firstName, donor.lastName].filter(Boolean).join(" ") || null;
    await enqueueEmails(
      tx,
      recipients.map((to) => ({
        template: "donor-erasure-request" as const,
        to,
        orgId: org.id,
        dedupeKey: `donor-erasure-request:${request.id}:${to}`,
        props: {
          orgName: org.name,
          donorName,
          donorEmail: donor.email,
          reviewUrl: `${getEnv().appUrl}/dashboard/${org.slug}/donors#donor-requests`,
        },
      })),
    );
    return { status: "PENDING" as const, requestId: request.id };
  });
}

async function pendingRequestOrThrow(db: Db, orgId: string, id: string): Promise<DonorRequest> {
  const request = await findDonorRequest(db, orgId, id);
  if (!request) throw notFound("donor_request_not_found", "Donor request not found");
  return request;
}

/**
 * Staff approve a pending erasure request: the donor is erased (see eraseDonor), and the request
 * COMPLETED by the approver. Approving it again answers the completed request (the erasure is
 * idempotent); a rejected one is 409.
 */
export async function approveDonorRequest(
  db: Db,
  processor: PaymentProcessor,
  orgId: string,
  id: string,
  audit: AuditContext,
): Promise<DonorRequest> {
  const request = await pendingRequestOrThrow(db, orgId, id);
  if (request.status === "REJECTED") throw conflict("donor_request_already_decided", "Donor request was already decided");
  if (request.status === "PENDING") await eraseDonor(db, processor, orgId, request.donorId, audit, { requestId: request.id });
  return (await findDonorRequest(db, orgId, id))!;
}

/** Staff reject a pending erasure request; audit-logged. A decided request is 409. */
export async function rejectDonorRequest(db: Db, orgId: string, id: string, audit: AuditContext): Promise<DonorRequest> {
  await pendingRequestOrThrow(db, orgId, id);
  return db.transaction(async (tx) => {
    const [rejected] = await tx
      .update(donorRequests)
      .set({ status: "REJECTED", decidedAt: sql`now()`, decidedBy: audit.actor.type === "user" ? audit.actor.id : null })
      .where(and(eq(donorRequests.id, id), eq(donorRequests.orgId, orgId), eq(donorRequests.status, "PENDING")))
      .returning();
    if (!rejected) throw conflict("donor_request_already_decided", "Donor request was already decided");
    await recordAudit(tx, audit, {
      orgId,
      action: "donor_request.rejected",
      target: { type: "donor_request", id },
      data: { donorId: rejected.donorId, kind: rejected.kind },
    });
    return rejected;
  });
}
