import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db";
import { donorSignInLinks, donors, type Organization } from "@/db/schema";
import { signInLinksKeptForMailbox } from "@/lib/services/sign-in/sign-in-links";
import { enqueueEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import { AppError } from "@/lib/errors";
import type { Locale } from "@/lib/i18n/locales";
import { newId } from "@/lib/ids";
import { limitRequest, rateLimitHeaders } from "@/lib/ratelimit";
import { donateBaseUrl } from "@/lib/schemas/organizations";

/** How long a donor sign-in link works (it also works only once). */
export const DONOR_SIGN_IN_LINK_MINUTES = 15;

/** The stored form of a link's token: only its SHA-256 is kept, so the database never holds a usable link. */
export function donorSignInTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The address a donor's account is looked up by: trimmed and lower-cased (donors are unique per organization and lower(email)). */
export function normalizeDonorEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A donor asks for a sign-in link to their account on `org`. The answer
 * is the same whether or not the address is a donor's: nothing is returned, and the work done is
 * a lookup and, for a donor, two inserts (the link row and its outbox email, in one transaction;
 * the email leaves with the worker, so no delivery time shows in the response).
 *
 * Limits, checked before the lookup so they say nothing about the address either:
 * DONOR_SIGNIN_LINKS_PER_IP requests per client IP and DONOR_SIGNIN_LINKS_PER_ADDRESS per
 * organization and address, per DONOR_SIGNIN_WINDOW_MINUTES (429 `rate_limited`).
 *
 * The token is 32 random bytes (base64url), stored only as its SHA-256, valid
 * DONOR_SIGN_IN_LINK_MINUTES; the email's link is `{donateBaseUrl}/account/sign-in?token=…&lang=…`,
 * and its props are purged from the outbox once sent (except on a local sandbox install, whose
 * outbox is the developer's mailbox).
 */
export async function requestDonorSignInLink(
  db: Db,
  org: Organization,
  input: { email: string; clientIp: string; locale?: Locale },
): Promise<void> {
  const email = normalizeDonorEmail(input.email);
  for (const [policy, key] of [
    ["donor-signin-ip", input.clientIp],
    ["donor-signin-address", `${org.id}:${email}`],
  ] as const) {
    const limited = await limitRequest(policy, key);
    if (!limited.success) throw new AppError("rate_limited", "Too many requests", undefined, rateLimitHeaders(limited));
  }

  const [donor] = await db
    .select({ id: donors.id, email: donors.email, locale: donors.locale })
    .from(donors)
    .where(and(eq(donors.orgId, org.id), sql`lower(${donors.email}) = ${email}`, isNull(donors.erasedAt)))
    .limit(1);
  if (!donor) return;

  const token = randomBytes(32).toString("base64url");
  const id = newId("dsl");
  // The language the request asked in, else the donor's, else the organization's: the email's,
  // and the account pages' the link opens (`lang`).
  const locale = emailLocale(input.locale, donor.locale, org.defaultLocale);
  const url = `${donateBaseUrl(org)}/account/sign-in?token=${encodeURIComponent(token)}&lang=${locale}`;
  await db.transaction(async (tx) => {
    await tx.insert(donorSignInLinks).values({
      id,
      orgId: org.id,
      donorId: donor.id,
      tokenHash: donorSignInTokenHash(token),
      expiresAt: sql`now() + ${`${DONOR_SIGN_IN_LINK_MINUTES} minutes`}::interval`,
    });
    // No orgId on the row: the organization's staff list its emails, and must never see a donor's sign-in link.
    await enqueueEmail(tx, {
      template: "donor-sign-in",
      to: donor.email,
      orgId: null,
      dedupeKey: `donor-sign-in:${id}`,
      props: {
        url,
        orgName: org.name,
        expiresInMinutes: DONOR_SIGN_IN_LINK_MINUTES,
        locale,
      },
      purgePropsWhenSent: !signInLinksKeptForMailbox(),
    });
  });
}
