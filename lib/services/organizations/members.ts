import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import { memberships, users, type Organization, type Role } from "@/db/schema";
import { enqueueEmail } from "@/lib/email/enqueue";
import { getEnv } from "@/lib/env";
import { conflict, notFound } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { iso } from "@/lib/schemas/common";
import { recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

export type MemberView = { userId: string; email: string; name: string | null; role: Role; createdAt: string };

const memberColumns = {
  userId: memberships.userId,
  email: users.email,
  name: users.name,
  role: memberships.role,
  createdAt: memberships.createdAt,
};

function view(row: { userId: string; email: string; name: string | null; role: Role; createdAt: Date }): MemberView {
  return { ...row, createdAt: iso(row.createdAt)! };
}

export async function listMembers(db: DbOrTx, orgId: string): Promise<MemberView[]> {
  const rows = await db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.orgId, orgId))
    .orderBy(asc(memberships.createdAt), asc(memberships.userId));
  return rows.map(view);
}

/** Who added a member, as the invitation names them. */
export type Inviter = { name: string | null; email: string };

/**
 * Adds a member by email. Someone who has never signed in gets a user record now; their first
 * sign-in with that email (any subject) is matched to it. Already a member: 409.
 *
 * The same transaction queues an invitation to the new member: the organization, their role, who
 * added them, and a link to the sign-in page with their email filled in (no sign-in token: the
 * sign-in page sends its own one-time link). Once per organization and person, so removing and
 * adding someone again, or changing their role, sends nothing more. The `member.added` audit
 * entry commits with it too.
 */
export async function addMember(
  db: Db,
  org: Pick<Organization, "id" | "name" | "slug">,
  email: string,
  role: Role,
  invitedBy: Inviter | null,
  audit: AuditContext,
): Promise<MemberView> {
  return db.transaction(async (tx) => {
    await tx
      .insert(users)
      .values({ id: newId("usr"), email })
      .onConflictDoNothing();
    const [user] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
      .limit(1);
    const [m] = await tx.insert(memberships).values({ orgId: org.id, userId: user.id, role }).onConflictDoNothing().returning();
    if (!m) throw conflict("already_a_member", "User is already a member of this organization");
    const signIn = new URLSearchParams({ email: user.email, callbackUrl: `/dashboard/${org.slug}` });
    await enqueueEmail(tx, {
      template: "member-invitation",
      to: user.email,
      orgId: org.id,
      dedupeKey: `invitation:${org.id}:${user.id}`,
      props: { orgName: org.name, role: m.role, memberEmail: user.email, invitedBy, signInUrl: `${getEnv().appUrl}/signin?${signIn}` },
    });
    await recordAudit(tx, audit, {
      orgId: org.id,
      action: "member.added",
      target: { type: "member", id: user.id },
      data: { email: user.email, role: m.role },
    });
    return view({ userId: user.id, email: user.email, name: user.name, role: m.role, createdAt: m.createdAt });
  });
}

/**
 * Changes a member's role or removes them. An organization always keeps at least one OWNER:
 * the owners' rows are locked first, so two concurrent demotions cannot both pass the check.
 * The audit entry (`member.removed`, or `member.role_changed` when the role really changes)
 * commits with the change.
 */
export async function changeMember(
  db: Db,
  orgId: string,
  userId: string,
  next: Role | null,
  audit: AuditContext,
): Promise<MemberView | null> {
  return db.transaction(async (tx) => {
    const owners = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.orgId, orgId), eq(memberships.role, "OWNER")))
      .for("update");
    const [current] = await tx
      .select(memberColumns)
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
      .limit(1);
    if (!current) throw notFound("member_not_found", "Member not found");
    const losesOwner = current.role === "OWNER" && next !== "OWNER";
    if (losesOwner && owners.length <= 1) throw conflict("last_owner", "An organization needs at least one owner");
    const where = and(eq(memberships.orgId, orgId), eq(memberships.userId, userId));
    const target = { type: "member", id: userId } as const;
    if (next === null) {
      await tx.delete(memberships).where(where);
      await recordAudit(tx, audit, { orgId, action: "member.removed", target, data: { email: current.email, role: current.role } });
      return null;
    }
    await tx.update(memberships).set({ role: next }).where(where);
    if (next !== current.role) {
      await recordAudit(tx, audit, {
        orgId,
        action: "member.role_changed",
        target,
        data: { email: current.email, from: current.role, role: next },
      });
    }
    return view({ ...current, role: next });
  });
}
