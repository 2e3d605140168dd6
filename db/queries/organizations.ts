import { and, asc, desc, eq, or } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { memberships, organizations, type Organization, type Role } from "@/db/schema";
import { firstRow } from "./rows";

/** By internal ID or slug: IDs carry an `org_` prefix that slugs can't contain, so they never collide. */
export function findOrganization(db: DbOrTx, idOrSlug: string): Promise<Organization | undefined> {
  return firstRow(db, organizations, or(eq(organizations.id, idOrSlug), eq(organizations.slug, idOrSlug)));
}

export async function getMembershipRole(db: DbOrTx, orgId: string, userId: string): Promise<Role | null> {
  const [m] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)))
    .limit(1);
  return m?.role ?? null;
}

export async function listOrganizationsForUser(db: DbOrTx, userId: string) {
  return db
    .select({ org: organizations, role: memberships.role })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.orgId))
    .where(eq(memberships.userId, userId))
    .orderBy(desc(organizations.createdAt), asc(organizations.id));
}
