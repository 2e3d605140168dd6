import { isIP } from "node:net";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users } from "@/db/schema";
import { isLoopbackAddress, socketAddressOf } from "@/lib/api/client-ip";
import { getEnv } from "@/lib/env";
import { DEMO_OWNER } from "./demo-owner";

/** Sandbox payments (PAYMENTS_MODE=sandbox, or embedded without a Stripe key): nothing real is charged or paid out. */
export function isSandboxMode(): boolean {
  return getEnv().paymentsMode === "sandbox";
}

/** Request headers as a route or page sees them (`Headers`), or as next-auth hands them to `authorize` (a plain object). */
export type RequestHeaders = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function toHeaders(headers: RequestHeaders): { get(name: string): string | null } {
  if (typeof headers.get === "function") return headers as { get(name: string): string | null };
  const out = new Headers();
  for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (value !== undefined) out.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return out;
}

/**
 * Whether a `Host` header names this machine: `localhost`, a 127.0.0.0/8 address or `[::1]`, with
 * any port. A site's visitors send its public name instead.
 */
export function isLoopbackHost(host: string | null): boolean {
  if (!host) return false;
  const h = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(h);
  const name = bracketed ? bracketed[1] : /^[^:]+(?::\d{1,5})?$/.test(h) ? h.split(":")[0] : null;
  if (name === null) return false;
  return name === "localhost" || (isIP(name) !== 0 && isLoopbackAddress(name));
}

/**
 * A request from this machine to this machine: the socket address our HTTP server proved is
 * loopback, and so is every hop a proxy recorded, and the `Host` it asked for is a loopback name.
 * Next.js fills X-Forwarded-For with the socket address when it is absent; a proxy on this machine
 * appends the address of the client it relays, so a request it forwards from elsewhere is not
 * local. RFC 7239 `Forwarded` (never added by Next.js) means a proxy: not local either. A proxy on
 * this machine that adds no forwarding headers at all makes every visitor look like loopback: the
 * Host they asked for (the site's public name, which a proxy passes on with `proxy_set_header Host
 * $host`) still gives them away.
 */
export function isLoopbackRequest(source: RequestHeaders): boolean {
  const headers = toHeaders(source);
  if (!isLoopbackAddress(socketAddressOf(headers))) return false;
  if (!isLoopbackHost(headers.get("host"))) return false;
  if (headers.get("forwarded") !== null) return false;
  for (const name of ["x-forwarded-for", "x-real-ip"]) {
    const value = headers.get(name);
    if (value !== null && !value.split(",").every((hop) => isLoopbackAddress(hop))) return false;
  }
  return true;
}

/**
 * The local-only conveniences (the sandbox mailbox, the one-click demo sign-in) exist only on an
 * embedded install in sandbox mode: never on a Postgres deployment, whatever its payments mode.
 */
export function isLocalSandbox(): boolean {
  const env = getEnv();
  return env.embedded && env.paymentsMode === "sandbox";
}

/**
 * The sandbox mailbox (sign-in links shown in the browser) answers only a loopback client (asking
 * for a loopback host) of a local, embedded, sandbox install that sends no real email: anywhere else it would hand anyone's
 * sign-in link to whoever asks.
 */
export function isMailboxAvailable(headers: RequestHeaders): boolean {
  return isLocalSandbox() && !getEnv().RESEND_API_KEY && isLoopbackRequest(headers);
}

/** Emails stay in the outbox (no Resend key): sign-in links are printed to the server log too. */
export function emailsStayLocal(): boolean {
  return !getEnv().RESEND_API_KEY;
}

/**
 * The demo owner signs in with one click only on a local sandbox install, only from a loopback
 * client asking for a loopback host, and only once the demo seed made them.
 */
export async function isDemoSignInAvailable(db: DbOrTx, headers: RequestHeaders): Promise<boolean> {
  if (!isLocalSandbox() || !isLoopbackRequest(headers)) return false;
  const [u] = await db.select({ id: users.id }).from(users).where(eq(users.id, DEMO_OWNER.id)).limit(1);
  return Boolean(u);
}

export type OAuthProviderId = "github" | "google" | "oidc";

/** OAuth providers whose ID and secret are both configured, in the order the sign-in page shows them. */
export function configuredOAuthProviders(): { id: OAuthProviderId; name: string }[] {
  const env = getEnv();
  const out: { id: OAuthProviderId; name: string }[] = [];
  if (env.GITHUB_ID && env.GITHUB_SECRET) out.push({ id: "github", name: "GitHub" });
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) out.push({ id: "google", name: "Google" });
  if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET) out.push({ id: "oidc", name: env.OIDC_NAME ?? "SSO" });
  return out;
}
