import type { IncomingMessage, ServerResponse } from "node:http";
import { cache } from "react";
import { getServerSession } from "next-auth";
import { notFound, redirect } from "next/navigation";
import { getDb } from "@/db";
import { findOrganization, getMembershipRole } from "@/db/queries/organizations";
import type { Organization, Role, User } from "@/db/schema";
import { getAuthOptions } from "./options";
import { userFromClaims } from "./session";
import type { SessionState } from "./sessions";

// Helpers for server components and pages (they read the request's cookies). Wrapped in React's
// cache() so a layout and its page share one lookup per request.

/**
 * The signed-in user and their session's claims, or null: the next-auth session (same options
 * as the API routes; its jwt callback refuses a signed-out session) → users row.
 */
export const getCurrentSession = cache(async () => sessionOf(await getServerSession(getAuthOptions())));

type SessionClaims = {
  user?: { id?: string; email?: string | null; name?: string | null };
  sid?: string | null;
  twoFactorAt?: number | null;
} | null;

async function sessionOf(claims: unknown): Promise<{ user: User; session: SessionState } | null> {
  const session = claims as SessionClaims;
  const user = session?.user;
  if (!user?.id || !user.email) return null;
  const found = await userFromClaims(await getDb(), { sub: user.id, email: user.email, name: user.name ?? null });
  return found ? { user: found, session: { sid: session?.sid ?? null, twoFactorAt: session?.twoFactorAt ?? null } } : null;
}

/** The signed-in user of a request outside the App Router (the donate page, pages/), or null. */
export async function getRequestUser(req: IncomingMessage & { cookies: Partial<Record<string, string>> }, res: ServerResponse) {
  return (await sessionOf(await getServerSession(req, res, getAuthOptions())))?.user ?? null;
}

/** The signed-in user, or null. */
export const getCurrentUser = cache(async (): Promise<User | null> => (await getCurrentSession())?.user ?? null);

/**
 * The signed-in user, or a redirect to the sign-in page that comes back to `returnTo`. A user
 * with two-factor on whose session has not passed it yet goes to the second-factor step first:
 * no dashboard page opens before it.
 */
export async function requireUser(returnTo = "/dashboard"): Promise<User> {
  const current = await getCurrentSession();
  if (!current) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  if (current.user.twoFactorEnabledAt && current.session.twoFactorAt === null) {
    redirect(`/signin/two-factor?callbackUrl=${encodeURIComponent(returnTo)}`);
  }
  return current.user;
}

export type OrgContext = { user: User; org: Organization; role: Role };

/**
 * The organization of a dashboard URL and the caller's role in it. Signed out: to the sign-in
 * page. Unknown organization, or one the caller does not belong to: 404 (its existence is not
 * revealed, as the API answers for IDs the caller can't see). An organization that requires
 * two-factor sends a member without it to the Security page to set it up.
 */
export const requireOrg = cache(async (orgSlug: string, returnTo?: string): Promise<OrgContext> => {
  const user = await requireUser(returnTo ?? `/dashboard/${orgSlug}`);
  const db = await getDb();
  const org = await findOrganization(db, orgSlug);
  if (!org) notFound();
  const role = await getMembershipRole(db, org.id, user.id);
  if (!role) notFound();
  if (org.requireTwoFactor && (await getCurrentSession())?.session.twoFactorAt == null) {
    redirect(`/dashboard/security?required=${encodeURIComponent(org.slug)}`);
  }
  return { user, org, role };
});
