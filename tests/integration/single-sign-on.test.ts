/**
 * Single sign-on through OpenID Connect (contract section 16), against a real provider run here:
 * the certified `oidc-provider` package. The sign-in goes through next-auth's own request
 * handler with our options (as tests/helpers/sign-in.ts does for email links): discovery, the
 * authorization request with PKCE and state, the provider's login and consent, the callback's
 * code exchange and ID token check, then our callbacks (verified email, a new session row).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { AuthOptions } from "next-auth";
import { decode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, userSessions, users } from "@/db/schema";
import { getAuthOptions } from "@/lib/auth/options";
import { configuredOAuthProviders } from "@/lib/auth/modes";
import { resetEnv } from "@/lib/env";
import { testDb } from "../helpers/db";
import { startOidcProvider, type LocalOidcProvider } from "../helpers/oidc-provider";

type Cookie = { name: string; value: string };
type HandlerResult = { status?: number; body?: unknown; redirect?: string; cookies?: Cookie[] };
const { AuthHandler } = createRequire(import.meta.url)(path.resolve("node_modules/next-auth/core/index.js")) as {
  AuthHandler: (params: { req: Record<string, unknown>; options: AuthOptions }) => Promise<HandlerResult>;
};

const APP = "http://localhost:3000";
let provider: LocalOidcProvider;
const saved = { ...process.env };

beforeAll(async () => {
  provider = await startOidcProvider(`${APP}/api/auth/callback/oidc`);
  Object.assign(process.env, {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
  });
  resetEnv();
});

afterAll(async () => {
  for (const k of ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEnv();
  await provider.close();
});

/** A browser's cookie jar for the provider's own pages. */
class Jar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair.indexOf("=");
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}

/** Follows the provider's redirects (with its cookies) until it sends the browser back to the app; answers that URL. */
async function throughProvider(start: string, login: string): Promise<URL> {
  const jar = new Jar();
  let url = new URL(start);
  let form: { action: string; fields: Record<string, string> } | null = null;
  for (let hops = 0; hops < 20; hops++) {
    if (url.origin === APP) return url;
    const res: Response = form
      ? await fetch(url, {
          method: "POST",
          redirect: "manual",
          headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form.fields).toString(),
        })
      : await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    form = null;
    jar.keep(res);
    const location = res.headers.get("location");
    if (location) {
      url = new URL(location, url);
      continue;
    }
    // An interaction page: the development login form, then the consent form.
    const html: string = await res.text();
    const action: string | undefined = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no form on ${url}: ${res.status} ${html.slice(0, 300)}`);
    const fields: Record<string, string> = {};
    for (const [tag] of html.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(tag)?.[1];
      if (name) fields[name] = /value="([^"]*)"/.exec(tag)?.[1] ?? "";
    }
    if ("login" in fields) Object.assign(fields, { login, password: "any password" });
    form = { action, fields };
    url = new URL(action, url);
  }
  throw new Error("too many redirects");
}

/** Signs in with "Continue with SSO" the way a browser does; answers next-auth's final answer and the cookies it set. */
async function ssoSignIn(login: string, ip = "203.0.113.40") {
  const options = getAuthOptions({ clientIp: ip, userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0" });
  const base = { headers: { host: "localhost:3000" }, query: {} };
  const csrf = await AuthHandler({ req: { ...base, method: "GET", action: "csrf", cookies: {} }, options });
  const csrfCookie = csrf.cookies!.find((c) => c.name.endsWith("csrf-token"))!;
  const started = await AuthHandler({
    req: {
      ...base,
      method: "POST",
      action: "signin",
      providerId: "oidc",
      body: { csrfToken: (csrf.body as { csrfToken: string }).csrfToken, callbackUrl: `${APP}/dashboard` },
      cookies: { [csrfCookie.name]: csrfCookie.value },
    },
    options,
  });
  const authorize = new URL(started.redirect!);
  expect(authorize.origin).toBe(provider.issuer);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("scope")).toBe("openid email profile");
  const back = await throughProvider(authorize.href, login);
  expect(back.pathname).toBe("/api/auth/callback/oidc");
  const cookies = Object.fromEntries((started.cookies ?? []).map((c) => [c.name, c.value]));
  const done = await AuthHandler({
    req: { ...base, method: "GET", action: "callback", providerId: "oidc", query: Object.fromEntries(back.searchParams), cookies },
    options,
  });
  return done;
}

describe("single sign-on (OpenID Connect)", () => {
  it("the sign-in page offers it once OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set", () => {
    expect(configuredOAuthProviders()).toContainEqual({ id: "oidc", name: "SSO" });
  });

  it("signs a person in through the provider: a session token with a sid, the identity linked, the session listed", async () => {
    const email = `sso-${Date.now()}@example.org`;
    const done = await ssoSignIn(email);
    expect(done.redirect).toBe(`${APP}/dashboard`);
    const session = done.cookies!.find((c) => c.name === "next-auth.session-token");
    expect(session).toBeDefined();
    const claims = (await decode({ token: session!.value, secret: process.env.NEXTAUTH_SECRET! })) as Record<string, unknown>;
    expect(claims.email).toBe(email);
    expect(typeof claims.sid).toBe("string");
    expect(claims.twoFactorAt).toBeUndefined();

    const db = await testDb();
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(claims.sub).toBe(user.id);
    const [link] = await db
      .select()
      .from(accounts)
      .where(and(eq(accounts.userId, user.id), eq(accounts.provider, "oidc")));
    expect(link.providerAccountId).toBe(email);
    const [row] = await db
      .select()
      .from(userSessions)
      .where(eq(userSessions.id, claims.sid as string));
    expect(row).toMatchObject({ userId: user.id, method: "oidc", device: "Firefox on Linux", network: "203.0.113.0/24" });
  });

  it("an address the provider did not verify is refused", async () => {
    const done = await ssoSignIn(`unverified-${Date.now()}`);
    expect(done.redirect).toMatch(/\/signin\?error=OAuthNoEmail$/);
    expect(done.cookies?.find((c) => c.name === "next-auth.session-token")).toBeUndefined();
  });
});
