import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donors, organizations, type Donor, type Organization } from "@/db/schema";
import { getEnv } from "@/lib/env";

/**
 * The donor cookie: a donor signed in to their account on one
 * organization's pages. It is stateless: `<payload>.<signature>`, the payload being base64url
 * JSON `{ d: donorId, o: orgId, e: expiry (unix seconds) }` and the signature an HMAC-SHA256 of
 * it under NEXTAUTH_SECRET (domain-separated from every other use of that secret). The cookie's
 * name carries the organization's ID, and the payload names it again, so a cookie of one
 * organization never authenticates another even when both are served from the same host. A
 * donor erased since (`donors.erased_at`) is signed out: every check loads the donor row.
 */

/** How long a donor stays signed in. */
export const DONOR_SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

const SIGNING_CONTEXT = "goodfund.donor-session.v1";

function secure(): boolean {
  return getEnv().appUrl.startsWith("https://");
}

/** The cookie's name for one organization: `__Host-` prefixed (Secure, Path=/, no Domain) when the app is on https. */
export function donorCookieName(orgId: string): string {
  return `${secure() ? "__Host-" : ""}gf_donor_${orgId}`;
}

function sign(payload: string): Buffer {
  return createHmac("sha256", getEnv().nextAuthSecret).update(`${SIGNING_CONTEXT}.${payload}`).digest();
}

/** A signed cookie value for a donor of an organization, valid until `expiresAt`. */
export function signDonorSession(donorId: string, orgId: string, expiresAt: Date): string {
  const payload = Buffer.from(JSON.stringify({ d: donorId, o: orgId, e: Math.floor(expiresAt.getTime() / 1000) })).toString("base64url");
  return `${payload}.${sign(payload).toString("base64url")}`;
}

/**
 * The donor ID a cookie value carries for this organization, or null when it is malformed,
 * signed with another secret, tampered with, of another organization, or expired. The
 * signature is compared in constant time.
 */
export function verifyDonorSession(value: string | undefined | null, orgId: string, now = new Date()): string | null {
  if (!value || value.length > 1024) return null;
  const dot = value.indexOf(".");
  if (dot <= 0) return null;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64url");
  const expected = sign(payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const { d, o, e } = (claims ?? {}) as { d?: unknown; o?: unknown; e?: unknown };
  if (typeof d !== "string" || typeof o !== "string" || typeof e !== "number") return null;
  if (o !== orgId || e * 1000 <= now.getTime()) return null;
  return d;
}

/** The `Set-Cookie` value that signs a donor in (7 days). */
export function donorSessionCookie(donorId: string, orgId: string, now = new Date()): string {
  const expires = new Date(now.getTime() + DONOR_SESSION_MAX_AGE_SECONDS * 1000);
  const value = signDonorSession(donorId, orgId, expires);
  return [
    `${donorCookieName(orgId)}=${value}`,
    "Path=/",
    `Max-Age=${DONOR_SESSION_MAX_AGE_SECONDS}`,
    `Expires=${expires.toUTCString()}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secure() ? ["Secure"] : []),
  ].join("; ");
}

/** The `Set-Cookie` value that signs a donor out of one organization. */
export function clearDonorSessionCookie(orgId: string): string {
  return [
    `${donorCookieName(orgId)}=`,
    "Path=/",
    "Max-Age=0",
    "Expires=Thu, 01 Jan 1970 00:00:00 GMT",
    "HttpOnly",
    "SameSite=Lax",
    ...(secure() ? ["Secure"] : []),
  ].join("; ");
}

/** The organization a donor URL names (`:orgSlug`), or undefined. */
export async function findOrganizationBySlug(db: DbOrTx, slug: string): Promise<Organization | undefined> {
  const [org] = await db.select().from(organizations).where(eq(organizations.slug, slug)).limit(1);
  return org;
}

/**
 * The donor a cookie value signs in on this organization, or null: the signature, organization
 * and expiry must hold, and the donor must still exist there and not be erased.
 */
export async function donorFromCookieValue(
  db: DbOrTx,
  org: Pick<Organization, "id">,
  value: string | undefined | null,
): Promise<Donor | null> {
  const donorId = verifyDonorSession(value, org.id);
  if (!donorId) return null;
  const [donor] = await db
    .select()
    .from(donors)
    .where(and(eq(donors.id, donorId), eq(donors.orgId, org.id), isNull(donors.erasedAt)))
    .limit(1);
  return donor ?? null;
}

/** The donor a request's cookie signs in on this organization, or null (see donorFromCookieValue). */
export async function authenticateDonorRequest(
  db: DbOrTx,
  req: { headers: Headers },
  org: Pick<Organization, "id">,
): Promise<Donor | null> {
  return donorFromCookieValue(db, org, cookieValue(req.headers.get("cookie"), donorCookieName(org.id)));
}

/** One cookie's value from a `Cookie` header. */
function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
