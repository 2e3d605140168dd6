import { eq, or, sql } from "drizzle-orm";
import { decode, getToken } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { z } from "zod";
import type { DbOrTx } from "@/db";
import { users, type User } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { authenticateApiKey, type AuthenticatedApiKey } from "@/lib/services/api-keys/authenticate-api-key";
import { API_KEY_PREFIX } from "@/lib/services/api-keys/key-secret";
import { isSessionActive } from "@/lib/services/sessions/session-activity";
import { sessionStateOf, type SessionState } from "./sessions";

const claimsSchema = z.object({
  sub: z.string().min(1).max(200),
  email: z.string().email().max(320),
  name: z.string().max(200).nullish(),
});

/**
 * Who a request authenticated as, and what proved it: a person by the `Authorization` header or
 * the session cookie, or an organization's API key (`Authorization: Bearer gf_…`).
 */
export type Authenticated =
  | { user: User; session: SessionState; apiKey?: undefined; via: "bearer" | "cookie" }
  | { user?: undefined; session?: undefined; apiKey: AuthenticatedApiKey; via: "api_key" };

/**
 * The caller of a request: an API key when the Bearer value is one (`gf_…`), else the signed-in
 * user from the next-auth session JWT in `Authorization: Bearer` or, without a Bearer token, the
 * session cookie. Null when absent, expired, revoked, tampered, or sealed with another secret (a
 * bad Bearer value is not rescued by a cookie). A valid token for an unknown subject provisions
 * the user (the identity provider is the source of truth); an existing user with that email,
 * invited before first sign-in, is reused.
 */
export async function authenticateRequest(db: DbOrTx, req: NextRequest): Promise<Authenticated | null> {
  const secret = getEnv().nextAuthSecret;
  // Other schemes (say, Basic from a password-protected staging proxy) leave the cookie in charge.
  const [scheme, value] = (req.headers.get("authorization") ?? "").trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === "bearer") {
    if (value?.startsWith(API_KEY_PREFIX)) {
      const apiKey = await authenticateApiKey(db, value);
      return apiKey ? { apiKey, via: "api_key" } : null;
    }
    const claims = value ? await decode({ token: safeDecodeURIComponent(value), secret }).catch(() => null) : null;
    const signedIn = claims ? await signedInUser(db, claims) : null;
    return signedIn ? { ...signedIn, via: "bearer" } : null;
  }
  const token = await getToken({ req, secret, secureCookie: usesSecureCookies(), logger: quietLogger });
  const signedIn = token ? await signedInUser(db, token) : null;
  return signedIn ? { ...signedIn, via: "cookie" } : null;
}

/**
 * The person a decoded session token names, with its session claims (`sid`, `twoFactorAt`);
 * null when it names nobody or its session was revoked (a token without `sid` has no session
 * to revoke, and stays valid until it expires).
 */
export async function signedInUser(db: DbOrTx, claims: unknown): Promise<{ user: User; session: SessionState } | null> {
  const user = await userFromClaims(db, claims);
  if (!user) return null;
  const session = sessionStateOf(claims);
  if (session.sid && !(await isSessionActive(db, session.sid, user.id))) return null;
  return { user, session };
}

/**
 * How the request authenticated as a person, and its session claims, read again from its token
 * (no database): for handlers that act on the caller's own session, once the route wrapper has
 * authenticated the request. Null for API keys and requests without a session token.
 */
export async function sessionOfRequest(req: NextRequest): Promise<{ via: "bearer" | "cookie"; state: SessionState } | null> {
  const secret = getEnv().nextAuthSecret;
  const [scheme, value] = (req.headers.get("authorization") ?? "").trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === "bearer") {
    if (!value || value.startsWith(API_KEY_PREFIX)) return null;
    const claims = await decode({ token: safeDecodeURIComponent(value), secret }).catch(() => null);
    return claims ? { via: "bearer", state: sessionStateOf(claims) } : null;
  }
  const token = await getToken({ req, secret, secureCookie: usesSecureCookies(), logger: quietLogger });
  return token ? { via: "cookie", state: sessionStateOf(token) } : null;
}

/** `authenticateRequest`'s user alone (null for an API key). */
export async function authenticate(db: DbOrTx, req: NextRequest): Promise<User | null> {
  return (await authenticateRequest(db, req))?.user ?? null;
}

function safeDecodeURIComponent(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** next-auth names its cookies `__Secure-…` when its URL is https (NEXTAUTH_URL, else APP_URL). */
export function usesSecureCookies(): boolean {
  const env = getEnv();
  return (env.NEXTAUTH_URL ?? env.appUrl).startsWith("https://");
}

/**
 * The user a decoded session token names (see `authenticate`): by ID, else by email, else
 * provisioned now. Null when the claims are not what a session token carries.
 */
export async function userFromClaims(db: DbOrTx, token: unknown): Promise<User | null> {
  const claims = claimsSchema.safeParse(token);
  if (!claims.success) return null;
  const { sub, email, name } = claims.data;

  const known = await findUser(db, sub, email);
  if (known) return known;
  const [created] = await db
    .insert(users)
    .values({ id: sub, email, name: name ?? null })
    .onConflictDoNothing()
    .returning();
  // Nothing inserted: a concurrent first request created the user (by this ID or this email).
  return created ?? (await findUser(db, sub, email)) ?? null;
}

/** The user with this ID, else the one with this email (invited before their first sign-in). */
async function findUser(db: DbOrTx, sub: string, email: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(or(eq(users.id, sub), sql`lower(${users.email}) = lower(${email})`))
    .orderBy(sql`${users.id} = ${sub} desc`)
    .limit(1);
  return user;
}

// getToken logs decryption failures through this; a bad token is an ordinary 401, not an event.
export const quietLogger = { error: () => {}, warn: () => {}, debug: () => {} } as never;
