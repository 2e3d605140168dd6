import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { donorSessions, donors, organizations, type Donor, type Organization } from "@/db/schema";
import { getEnv } from "@/lib/env";

/**
 * The donor cookie: a donor signed in to their account on one organization's pages, for one
 * server-side session. `<payload>.<signature>`, the payload being base64url JSON
 * `{ s: sessionId, d: donorId, o: orgId, e: expiry (unix seconds) }` and the signature an
 * HMAC-SHA256 of it under NEXTAUTH_SECRET (domain-separated from every other use of that
 * secret). The session ID is 32 random bytes; the database keeps only its SHA-256
 * (`donor_sessions`), so a dump holds no usable cookie. Every check needs the signature, the
 * organization, the expiry, the session row (signing out deletes it: a copied cookie stops
 * working) and the donor (erased since: signed out). The cookie's name carries the
 * organization's ID, and the payload names it again, so a cookie of one organization never
 * authenticates another even when both are served from the same host.
 */

/** How long a donor stays signed in. */
export const DONOR_SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

const SIGNING_CONTEXT = "goodfund.donor-session.v2";

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

/** The stored form of a session ID. */
const sessionHash = (sessionId: string) => createHash("sha256").update(sessionId).digest("hex");

export type DonorSessionClaims = { sessionId: string; donorId: string; orgId: string; expiresAt: Date };

/** A signed cookie value for these claims (the session row is the caller's to make: startDonorSession). */
export function signDonorSession(claims: DonorSessionClaims): string {
  const { sessionId, donorId, orgId, expiresAt } = claims;
  const payload = Buffer.from(JSON.stringify({ s: sessionId, d: donorId, o: orgId, e: Math.floor(expiresAt.getTime() / 1000) })).toString(
    "base64url",
  );
  return `${payload}.${sign(payload).toString("base64url")}`;
}

/**
 * The session and donor a cookie value names for this organization, or null when it is
 * malformed, signed with another secret, tampered with, of another organization, or expired.
 * The signature is compared in constant time. Whether the session still exists is
 * donorFromCookieValue's to check.
 */
export function verifyDonorSession(
  value: string | undefined | null,
  orgId: string,
  now = new Date(),
): { sessionId: string; donorId: string } | null {
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
  const { s, d, o, e } = (claims ?? {}) as { s?: unknown; d?: unknown; o?: unknown; e?: unknown };
  if (typeof s !== "string" || typeof d !== "string" || typeof o !== "string" || typeof e !== "number") return null;
  if (o !== orgId || e * 1000 <= now.getTime()) return null;
  return { sessionId: s, donorId: d };
}

/** The `Set-Cookie` value of a donor's session, valid until `expiresAt` (DONOR_SESSION_MAX_AGE_SECONDS from now). */
function sessionCookie(value: string, expiresAt: Date, orgId: string): string {
  return [
    `${donorCookieName(orgId)}=${value}`,
    "Path=/",
    `Max-Age=${DONOR_SESSION_MAX_AGE_SECONDS}`,
    `Expires=${expiresAt.toUTCString()}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secure() ? ["Secure"] : []),
  ].join("; ");
}

/**
 * Signs a donor in to an organization's account pages for 7 days: a new session row, and the
 * `Set-Cookie` value that carries it.
 */
export async function startDonorSession(db: DbOrTx, donorId: string, orgId: string, now = new Date()): Promise<string> {
  const sessionId = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + DONOR_SESSION_MAX_AGE_SECONDS * 1000);
  await db.insert(donorSessions).values({ idHash: sessionHash(sessionId), orgId, donorId, expiresAt });
  return sessionCookie(signDonorSession({ sessionId, donorId, orgId, expiresAt }), expiresAt, orgId);
}

/**
 * Signs the request's donor out of an organization: deletes the session its cookie names, so
 * that cookie (and any copy of it) no longer signs anyone in. Answers whether there was one.
 */
export async function revokeDonorSession(db: DbOrTx, req: { headers: Headers }, org: Pick<Organization, "id">): Promise<boolean> {
  const claims = verifyDonorSession(cookieValue(req.headers.get("cookie"), donorCookieName(org.id)), org.id);
  if (!claims) return false;
  const gone = await db
    .delete(donorSessions)
    .where(and(eq(donorSessions.idHash, sessionHash(claims.sessionId)), eq(donorSessions.orgId, org.id)))
    .returning({ idHash: donorSessions.idHash });
  return gone.length > 0;
}

/** Deletes expired donor sessions (the worker's clean-up); answers how many. */
export async function purgeExpiredDonorSessions(db: DbOrTx): Promise<number> {
  const gone = await db
    .delete(donorSessions)
    .where(lt(donorSessions.expiresAt, sql`now()`))
    .returning({ idHash: donorSessions.idHash });
  return gone.length;
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
 * and expiry must hold, its session must still exist (not signed out, not expired), and the
 * donor must still exist there and not be erased. One query.
 */
export async function donorFromCookieValue(
  db: DbOrTx,
  org: Pick<Organization, "id">,
  value: string | undefined | null,
): Promise<Donor | null> {
  const claims = verifyDonorSession(value, org.id);
  if (!claims) return null;
  const [row] = await db
    .select({ donor: donors })
    .from(donorSessions)
    .innerJoin(donors, eq(donors.id, donorSessions.donorId))
    .where(
      and(
        eq(donorSessions.idHash, sessionHash(claims.sessionId)),
        eq(donorSessions.orgId, org.id),
        eq(donorSessions.donorId, claims.donorId),
        gt(donorSessions.expiresAt, sql`now()`),
        eq(donors.orgId, org.id),
        isNull(donors.erasedAt),
      ),
    )
    .limit(1);
  return row?.donor ?? null;
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
