import { and, count, eq, isNotNull, lt, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import { donorSignInLinks, outbox, verificationTokens } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { limitRequest } from "@/lib/ratelimit";

/**
 * Sign-in links (next-auth email magic links): how many may be asked for, where they may be
 * seen, and how long they stay in the database. A link is usable only while its verification
 * token row exists and has not expired; next-auth stores that token as an HMAC-like hash
 * (sha256 of the token and NEXTAUTH_SECRET), so the link itself is the only usable copy, and it
 * is kept out of the logs and the database as far as each mode allows.
 */

/** How long a sign-in link works (it also works only once). */
export const MAGIC_LINK_MAX_AGE_SECONDS = 60 * 60;
/** At most this many sign-in emails to one address per window, so the form can't be used to flood a mailbox. */
export const MAGIC_LINKS_PER_WINDOW = 5;
export const MAGIC_LINK_WINDOW_SECONDS = 15 * 60;

/** The sign-in page's `error` code for a refused request (the page explains it). */
export type SignInLinkRefusal = "TooManySignInEmails" | "TooManySignInRequests";

/**
 * Links (staff magic links and donor account links) are printed to the server log only on a
 * local sandbox install (embedded, sandbox payments) that sends no email: there the log is the
 * developer's own terminal. An embedded install taking real payments (Stripe mode) is someone's
 * live site, and a deployment on Postgres is too: they never log one, whatever else is configured.
 */
export function signInLinksLogged(): boolean {
  const env = getEnv();
  return env.embedded && env.paymentsMode === "sandbox" && !env.RESEND_API_KEY;
}

/**
 * On a local sandbox install that sends no email, the outbox row is the mailbox the developer
 * reads the link from (/sandbox/mailbox), so it keeps the link until it expires. Everywhere else
 * the link is purged from the outbox as soon as the email is sent.
 */
export function signInLinksKeptForMailbox(): boolean {
  const env = getEnv();
  return env.embedded && env.paymentsMode === "sandbox" && !env.RESEND_API_KEY;
}

/**
 * Checks a request for a sign-in email before any token is made: at most MAGIC_LINKS_PER_WINDOW
 * links to one address per window (counted from the unexpired tokens), and SIGNIN_LINKS_PER_IP
 * requests per SIGNIN_LINKS_IP_WINDOW_MINUTES from one client IP (the rate-limit store; IPv6
 * per /64). Answers the refusal, or null to go ahead. `identifier` is the normalized address.
 */
export async function signInLinkRefusal(db: DbOrTx, identifier: string, clientIp: string | null): Promise<SignInLinkRefusal | null> {
  if (clientIp !== null) {
    const limited = await limitRequest("signin-ip", clientIp);
    if (!limited.success) return "TooManySignInRequests";
  }
  // Links asked for in the window are the unexpired tokens with the most time left (the primary
  // key's leading column is the identifier, so this is an index lookup).
  const [{ recent }] = await db
    .select({ recent: count() })
    .from(verificationTokens)
    .where(
      and(
        eq(verificationTokens.identifier, identifier),
        sql`${verificationTokens.expires} > now() + ${`${MAGIC_LINK_MAX_AGE_SECONDS - MAGIC_LINK_WINDOW_SECONDS} seconds`}::interval`,
      ),
    );
  return recent >= MAGIC_LINKS_PER_WINDOW ? "TooManySignInEmails" : null;
}

/**
 * The worker's clean-up of sign-in links: deletes expired verification tokens and used or
 * expired donor account links (their links no longer work, and the rows only grow), and on a
 * local mailbox install purges the links of expired sign-in emails, the donor account ones
 * included, from the outbox (elsewhere they were purged when sent). Answers how many
 * verification tokens were deleted.
 */
export async function purgeExpiredSignInLinks(db: Db): Promise<number> {
  const deleted = await db
    .delete(verificationTokens)
    .where(lt(verificationTokens.expires, sql`now()`))
    .returning({ identifier: verificationTokens.identifier });
  await db.delete(donorSignInLinks).where(or(lt(donorSignInLinks.expiresAt, sql`now()`), isNotNull(donorSignInLinks.usedAt)));
  if (signInLinksKeptForMailbox()) {
    await db
      .update(outbox)
      .set({ payload: sql`(${outbox.payload} - 'props') || '{"purged": true}'::jsonb` })
      .where(
        and(
          eq(outbox.kind, "email"),
          sql`${outbox.payload}->>'template' in ('magic-link', 'donor-sign-in')`,
          sql`${outbox.payload} ? 'props'`,
          lt(outbox.createdAt, sql`now() - ${`${MAGIC_LINK_MAX_AGE_SECONDS} seconds`}::interval`),
        ),
      );
  }
  return deleted.length;
}
