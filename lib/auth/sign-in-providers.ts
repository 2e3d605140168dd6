import { eq } from "drizzle-orm";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig, Provider } from "next-auth/providers/index";
import { z } from "zod";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import type { Env } from "@/lib/env";
import { verifyPasskeyAuthentication } from "@/lib/services/passkeys/authenticate-passkey";

type OidcProfile = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  picture?: string;
};

/**
 * Single sign-on through any OpenID Connect provider (Okta, Entra ID, Google Workspace,
 * Keycloak...): discovery from OIDC_ISSUER, the authorization code flow with PKCE and state,
 * the ID token checked against the provider's keys. Accounts are matched by email, so only a
 * provider-verified address is accepted (`email_verified`, checked in the signIn callback).
 * Null unless OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are all set.
 */
export function oidcProvider(env: Env): OAuthConfig<OidcProfile> | null {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return null;
  return {
    id: "oidc",
    name: env.OIDC_NAME ?? "SSO",
    type: "oauth",
    wellKnown: `${env.OIDC_ISSUER.replace(/\/$/, "")}/.well-known/openid-configuration`,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    allowDangerousEmailAccountLinking: true,
    profile(profile) {
      return {
        id: profile.sub,
        email: profile.email ?? null,
        name: profile.name ?? profile.preferred_username ?? null,
        image: profile.picture ?? null,
      };
    },
  };
}

const passkeyCredentials = z.object({ challengeId: z.string().min(1).max(100), response: z.string().min(1).max(20_000) });

/**
 * Sign-in with a passkey: the sign-in page asks for options (POST /api/passkeys/sign-in-options),
 * lets the browser sign the challenge with a discoverable passkey (user verification required),
 * and hands the answer here. The passkey stands for both factors, so the session starts with
 * `twoFactorAt` (set in the jwt callback).
 */
export function passkeyProvider(): Provider {
  return CredentialsProvider({
    id: "passkey",
    name: "Passkey",
    credentials: { challengeId: { type: "text" }, response: { type: "text" } },
    async authorize(credentials) {
      const parsed = passkeyCredentials.safeParse(credentials);
      if (!parsed.success) return null;
      let response: unknown;
      try {
        response = JSON.parse(parsed.data.response);
      } catch {
        return null;
      }
      const db = await getDb();
      const verified = await verifyPasskeyAuthentication(db, { challengeId: parsed.data.challengeId, response: response as never }, null);
      if (!verified) return null;
      const [u] = await db.select().from(users).where(eq(users.id, verified.userId)).limit(1);
      return u ? { id: u.id, email: u.email, name: u.name } : null;
    },
  });
}
