import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { NextAuthOptions } from "next-auth";
import type { Provider } from "next-auth/providers/index";
import type { EmailConfig } from "next-auth/providers/email";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider, { type GithubEmail, type GithubProfile } from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { getDb } from "@/db";
import { users } from "@/db/schema";
import { enqueueEmail } from "@/lib/email/enqueue";
import { recipientDomain } from "@/lib/email/send";
import { getEnv, type Env } from "@/lib/env";
import { log } from "@/lib/log";
import {
  MAGIC_LINK_MAX_AGE_SECONDS,
  signInLinkRefusal,
  signInLinksKeptForMailbox,
  signInLinksLogged,
} from "@/lib/services/sign-in/sign-in-links";
import { createUserSession } from "@/lib/services/sessions/create-session";
import { endSession } from "@/lib/services/sessions/revoke-session";
import { drizzleAdapter } from "./adapter";
import { DEMO_OWNER } from "./demo-owner";
import { isDemoSignInAvailable, isLocalSandbox } from "./modes";
import { oidcProvider, passkeyProvider } from "./sign-in-providers";
import { isSessionActive } from "@/lib/services/sessions/session-activity";
import { sessionStateOf } from "./sessions";

/** How long a sign-in link works (it also works only once). */
export { MAGIC_LINK_MAX_AGE_SECONDS };

/**
 * next-auth v4 configuration: JWT sessions whose token is also the API's Bearer token.
 * Both maxAge settings are set: next-auth defaults each to 30 days independently.
 *
 * Providers: email magic links (always; sent through the outbox like every other email),
 * GitHub and Google when their credentials are configured, single sign-on through an OpenID
 * Connect provider (OIDC_*), passkeys, and the one-click "demo" sign-in on a local sandbox
 * install, which signs in only the seeded demo owner, only while that user exists, and only for
 * a loopback client. `request` is the client IP and User-Agent of the sign-in request, which
 * the new session's row describes.
 */
export function getAuthOptions(request: { clientIp?: string; userAgent?: string | null } = {}): NextAuthOptions {
  const env = getEnv();
  // next-auth builds links (the magic link's URL) from NEXTAUTH_URL; without it, it would fall
  // back to http://localhost:3000 whatever PORT or APP_URL say.
  process.env.NEXTAUTH_URL ??= env.appUrl;
  return {
    secret: env.nextAuthSecret,
    session: { strategy: "jwt", maxAge: env.SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: env.SESSION_MAX_AGE_SECONDS },
    adapter: drizzleAdapter(),
    providers: providers(env),
    pages: { signIn: "/signin", error: "/signin", verifyRequest: "/signin?check=email" },
    logger: {
      error: (code, metadata) => log.warn("auth error", { code, detail: metadata instanceof Error ? metadata.message : undefined }),
      warn: (code) => log.debug("auth warning", { code }),
      debug: () => {},
    },
    callbacks: {
      async signIn({ account, profile, user, email }) {
        // A request for a sign-in email (not the click on its link): limited per address and per
        // client IP before any token is made. The absolute URL reaches the page's fetch as is.
        if (email?.verificationRequest && account?.type === "email") {
          const refusal = await signInLinkRefusal(await getDb(), account.providerAccountId, request.clientIp ?? null);
          if (refusal) {
            log.warn("sign-in email refused", { reason: refusal, toDomain: recipientDomain(account.providerAccountId) });
            return `${env.appUrl}/signin?error=${refusal}`;
          }
          return true;
        }
        if (account?.type !== "oauth") return true;
        // The API identifies people by email: an OAuth identity without a verified one can't sign in.
        if (!user.email) return "/signin?error=OAuthNoEmail";
        // Google and the SSO provider say whether they verified the address; an unverified one
        // could claim someone else's account (the accounts are linked by email).
        if (
          (account.provider === "google" || account.provider === "oidc") &&
          (profile as { email_verified?: boolean } | undefined)?.email_verified !== true
        ) {
          return "/signin?error=OAuthNoEmail";
        }
        return true;
      },
      // The claims the API reads (sub, email, name, and the session's sid and twoFactorAt);
      // next-auth adds iat, exp and jti. A sign-in records a new session (its sid); a passkey
      // sign-in (user verification required) is a second factor too. A revoked session's token
      // is refused here, which makes next-auth clear the cookie.
      async jwt({ token, user, account }) {
        if (user) {
          const method = account?.provider ?? "email";
          const twoFactorAt = method === "passkey" ? Math.floor(Date.now() / 1000) : null;
          const sid = await createUserSession(await getDb(), {
            userId: user.id,
            method,
            userAgent: request.userAgent ?? null,
            clientIp: request.clientIp ?? "unknown",
            twoFactorAt,
          });
          return { sub: user.id, email: user.email ?? null, name: user.name ?? null, sid, ...(twoFactorAt ? { twoFactorAt } : {}) };
        }
        const { sid, twoFactorAt } = sessionStateOf(token);
        if (sid && token.sub && !(await isSessionActive(await getDb(), sid, token.sub))) throw new Error("Session signed out");
        return {
          sub: token.sub,
          email: token.email ?? null,
          name: token.name ?? null,
          ...(sid ? { sid } : {}),
          ...(twoFactorAt ? { twoFactorAt } : {}),
          iat: token.iat,
          exp: token.exp,
          jti: token.jti,
        };
      },
      async session({ session, token }) {
        const { sid, twoFactorAt } = sessionStateOf(token);
        return { ...session, user: { ...session.user, id: token.sub }, sid, twoFactorAt } as typeof session;
      },
    },
    events: {
      // Signing out ends the session's row too, so a copy of its token stops working as well.
      async signOut({ token }) {
        const { sid } = sessionStateOf(token);
        if (sid && token?.sub) await endSession(await getDb(), sid, token.sub);
      },
    },
  };
}

function providers(env: Env): Provider[] {
  const list: Provider[] = [emailProvider(env)];
  if (env.GITHUB_ID && env.GITHUB_SECRET) {
    list.push(
      GitHubProvider({
        clientId: env.GITHUB_ID,
        clientSecret: env.GITHUB_SECRET,
        // Safe because only a verified address is ever taken from GitHub (below) and Google
        // (the signIn callback): the same person as the one invited or signed in by that email.
        allowDangerousEmailAccountLinking: true,
        userinfo: {
          url: "https://api.github.com/user",
          async request({ client, tokens }) {
            const profile = (await client.userinfo(tokens.access_token!)) as unknown as GithubProfile;
            const res = await fetch("https://api.github.com/user/emails", {
              headers: { Authorization: `token ${tokens.access_token}`, "User-Agent": "goodfund" },
            });
            const emails: GithubEmail[] = res.ok ? await res.json() : [];
            const verified = emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified);
            return { ...profile, email: verified?.email ?? null } as never;
          },
        },
      }),
    );
  }
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    list.push(
      GoogleProvider({
        clientId: env.GOOGLE_CLIENT_ID,
        clientSecret: env.GOOGLE_CLIENT_SECRET,
        allowDangerousEmailAccountLinking: true,
      }),
    );
  }
  const sso = oidcProvider(env);
  if (sso) list.push(sso);
  list.push(passkeyProvider());
  if (isLocalSandbox()) list.push(demoProvider());
  return list;
}

/**
 * Magic links through the outbox (delivered by the worker via Resend, or kept for the sandbox
 * mailbox). Built by hand instead of next-auth's EmailProvider, which loads nodemailer.
 */
function emailProvider(env: Env): EmailConfig {
  const config: EmailConfig = {
    id: "email",
    type: "email",
    name: "Email",
    server: {},
    from: env.EMAIL_FROM,
    maxAge: MAGIC_LINK_MAX_AGE_SECONDS,
    // Reached after the signIn callback accepted the request (the per-address and per-IP limits).
    async sendVerificationRequest({ identifier, url, token }) {
      const db = await getDb();
      const host = new URL(url).host;
      // The token is unique per request; its hash keys the email without putting it in the key.
      const dedupeKey = `magic-link:${createHash("sha256").update(token).digest("hex")}`;
      // The link leaves the outbox with the send, unless the outbox is this install's mailbox.
      await enqueueEmail(db, {
        template: "magic-link",
        to: identifier,
        props: { url, host },
        dedupeKey,
        orgId: null,
        purgePropsWhenSent: !signInLinksKeptForMailbox(),
      });
      if (signInLinksLogged()) {
        log.info("sign-in link kept locally (no RESEND_API_KEY): open it to sign in", { toDomain: recipientDomain(identifier), url });
      }
    },
    options: {},
  };
  return config;
}

function demoProvider(): Provider {
  return CredentialsProvider({
    id: "demo",
    name: "Demo organization owner",
    credentials: {},
    // next-auth passes the request's headers (a plain object): the client must be loopback.
    async authorize(_credentials, req) {
      const db = await getDb();
      if (!(await isDemoSignInAvailable(db, req?.headers ?? {}))) return null;
      const [u] = await db.select().from(users).where(eq(users.id, DEMO_OWNER.id)).limit(1);
      return u ? { id: u.id, email: u.email, name: u.name } : null;
    },
  });
}
