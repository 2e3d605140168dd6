import { cache } from "react";
import { getServerSession } from "next-auth";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db";
import { findOrganization, getMembershipRole } from "@/db/queries/organizations";
import type { Organization, Role, User } from "@/db/schema";
import { getAuthOptions } from "./options";
import { userFromClaims } from "./session";

// Helpers for server components and pages (they read the request's cookies). Wrapped in React's
// cache() so a layout and its page share one lookup per request.

/** The signed-in user, or null: the next-auth session (same options as the API routes) → users row. */
export const getCurrentUser = cache(async (): Promise<User | null> => {
  const session = await getServerSession(getAuthOptions());
  const user = session?.user as { id?: string; email?: string | null; name?: string | null } | undefined;
  if (!user?.id || !user.email) return null;
  return userFromClaims(await getDb(), { sub: user.id, email: user.email, name: user.name ?? null });
});

/** The signed-in user, or a redirect to the sign-in page that comes back to `returnTo`. */
export async function requireUser(returnTo = "/dashboard"): Promise<User> {
  const user = await getCurrentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  return user;
}

export type OrgContext = { user: User; org: Organization; role: Role };

/**
 * The organization of a dashboard URL and the caller's role in it. Signed out: to the sign-in
 * page. Unknown organization, or one the caller does not belong to: 404 (its existence is not
 * revealed, as the API answers for IDs the caller can't see).
 */
export const requireOrg = cache(async (orgSlug: string, returnTo?: string): Promise<OrgContext> => {
  const user = await requireUser(returnTo ?? `/dashboard/${orgSlug}`);
  const db = await getDb();
  const org = await findOrganization(db, orgSlug);
  if (!org) notFound();
  const role = await getMembershipRole(db, org.id, user.id);
  if (!role) notFound();
  return { user, org, role };
});
