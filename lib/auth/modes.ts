import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { users } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { DEMO_OWNER } from "@/lib/services/seed/demo";

/** Sandbox payments (PAYMENTS_MODE=sandbox, or embedded without a Stripe key): nothing real is charged or paid out. */
export function isSandboxMode(): boolean {
  return getEnv().paymentsMode === "sandbox";
}

/**
 * The sandbox mailbox (sign-in links shown in the browser) exists only on a local, embedded,
 * sandbox install that sends no real email: anywhere else it would hand anyone's sign-in link
 * to whoever asks.
 */
export function isMailboxEnabled(): boolean {
  const env = getEnv();
  return env.embedded && env.paymentsMode === "sandbox" && !env.RESEND_API_KEY;
}

/** Emails stay in the outbox (no Resend key): sign-in links are printed to the server log too. */
export function emailsStayLocal(): boolean {
  return !getEnv().RESEND_API_KEY;
}

/** The demo owner signs in with one click only in sandbox mode, and only once the demo seed made them. */
export async function isDemoSignInAvailable(db: DbOrTx): Promise<boolean> {
  if (!isSandboxMode()) return false;
  const [u] = await db.select({ id: users.id }).from(users).where(eq(users.id, DEMO_OWNER.id)).limit(1);
  return Boolean(u);
}

export type OAuthProviderId = "github" | "google";

/** OAuth providers whose ID and secret are both configured, in the order the sign-in page shows them. */
export function configuredOAuthProviders(): { id: OAuthProviderId; name: string }[] {
  const env = getEnv();
  const out: { id: OAuthProviderId; name: string }[] = [];
  if (env.GITHUB_ID && env.GITHUB_SECRET) out.push({ id: "github", name: "GitHub" });
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) out.push({ id: "google", name: "Google" });
  return out;
}
