import { encode } from "next-auth/jwt";
import { getEnv } from "@/lib/env";

export type SessionClaims = {
  sub: string;
  email: string;
  name?: string | null;
  /** The session's row (user_sessions); absent on tokens that belong to no listed session. */
  sid?: string;
  /** Unix seconds when the session passed a second factor. */
  twoFactorAt?: number;
};

/** A session JWT exactly as next-auth issues it (what the dashboard's cookie holds). */
export async function issueSessionToken(claims: SessionClaims, maxAgeSeconds?: number): Promise<string> {
  const env = getEnv();
  return encode({
    token: {
      sub: claims.sub,
      email: claims.email,
      name: claims.name ?? null,
      ...(claims.sid ? { sid: claims.sid } : {}),
      ...(claims.twoFactorAt ? { twoFactorAt: claims.twoFactorAt } : {}),
    },
    secret: env.nextAuthSecret,
    maxAge: maxAgeSeconds ?? env.SESSION_MAX_AGE_SECONDS,
  });
}
