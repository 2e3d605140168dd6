import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db";
import { donorSignInLinks, donors, organizations, type Organization } from "@/db/schema";
import { signInLinksKeptForMailbox, signInLinksLogged } from "@/lib/services/sign-in/sign-in-links";
import { enqueueEmail } from "@/lib/email/enqueue";
import { emailLocale } from "@/lib/email/locale";
import { recipientDomain } from "@/lib/email/send";
import { AppError } from "@/lib/errors";
import type { Locale } from "@/lib/i18n/locales";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";
import { enqueue } from "@/lib/outbox/enqueue";
import { PermanentDeliveryError } from "@/lib/outbox/lease";
import { PURGE_WHEN_SENT } from "@/lib/outbox/purge";
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

/** The outbox kind of a sign-in link request: the worker looks the address up after the answer. */
export const DONOR_SIGN_IN_REQUEST = "donor-sign-in";

/** What a queued request carries: the organization, the address as asked, the language, and its link's ID. */
type SignInRequestPayload = { orgId: string; email: string; locale?: Locale; linkId: string };

/**
 * A donor asks for a sign-in link to their account on `org`. The answer is the same whether or
 * not the address is a donor's, and so is the work done before it: the limits, then one outbox
 * row queuing the request. Whether the address belongs to a donor is looked up afterwards, by the
 * worker (sendDonorSignInLink), so the request's timing says nothing about it.
 *
 * Limits, checked first, say nothing about the address either: DONOR_SIGNIN_LINKS_PER_IP requests
 * per client IP and DONOR_SIGNIN_LINKS_PER_ADDRESS per organization and address, per
 * DONOR_SIGNIN_WINDOW_MINUTES (429 `rate_limited`).
 *
 * The queued row holds the address only until the worker has handled it (then it is purged, like
 * a sent sign-in link); staff never see it (their lists show emails only).
 */
export async function requestDonorSignInLink(
  db: DbOrTx,
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
  const linkId = newId("dsl");
  const payload: SignInRequestPayload = { orgId: org.id, email, linkId, ...(input.locale ? { locale: input.locale } : {}) };
  await enqueue(db, {
    kind: DONOR_SIGN_IN_REQUEST,
    dedupeKey: `donor-sign-in-request:${linkId}`,
    orgId: org.id,
    payload: { ...payload, [PURGE_WHEN_SENT]: ["email"] },
  });
}

/**
 * The worker's half of a sign-in link request (a `donor-sign-in` outbox row): if the organization
 * has a donor (not erased) with that address, a link row and its email, in one transaction. The
 * link's ID comes from the request, so a retry after a crash makes no second link or email.
 *
 * The token is 32 random bytes (base64url), stored only as its SHA-256, valid
 * DONOR_SIGN_IN_LINK_MINUTES; the email's link is `{donateBaseUrl}/account/sign-in?token=…&lang=…`,
 * and its props are purged from the outbox once sent (except on a local sandbox install, whose
 * outbox is the developer's mailbox; there the link is also printed to the log).
 */
export async function sendDonorSignInLink(db: Db, request: Record<string, unknown>): Promise<void> {
  const { orgId, email, locale, linkId } = request as Partial<SignInRequestPayload>;
  if (typeof orgId !== "string" || typeof email !== "string" || typeof linkId !== "string") {
    throw new PermanentDeliveryError("donor sign-in request without its organization, address or link ID");
  }
  const [org] = await db.select().from(organizations).where(eq(organizations.id, orgId)).limit(1);
  if (!org) return;
  const [donor] = await db
    .select({ id: donors.id, email: donors.email, locale: donors.locale })
    .from(donors)
    .where(and(eq(donors.orgId, org.id), sql`lower(${donors.email}) = ${email}`, isNull(donors.erasedAt)))
    .limit(1);
  if (!donor?.email) return;
  const to = donor.email;

  const token = randomBytes(32).toString("base64url");
  // The language the request asked in, else the donor's, else the organization's: the email's,
  // and the account pages' the link opens (`lang`).
  const language = emailLocale(locale, donor.locale, org.defaultLocale);
  const url = `${donateBaseUrl(org)}/account/sign-in?token=${encodeURIComponent(token)}&lang=${language}`;
  const made = await db.transaction(async (tx) => {
    const [link] = await tx
      .insert(donorSignInLinks)
      .values({
        id: linkId,
        orgId: org.id,
        donorId: donor.id,
        tokenHash: donorSignInTokenHash(token),
        expiresAt: sql`now() + ${`${DONOR_SIGN_IN_LINK_MINUTES} minutes`}::interval`,
      })
      .onConflictDoNothing({ target: donorSignInLinks.id })
      .returning({ id: donorSignInLinks.id });
    if (!link) return false;
    // No orgId on the row: the organization's staff list its emails, and must never see a donor's sign-in link.
    await enqueueEmail(tx, {
      template: "donor-sign-in",
      to,
      orgId: null,
      dedupeKey: `donor-sign-in:${linkId}`,
      props: {
        url,
        orgName: org.name,
        expiresInMinutes: DONOR_SIGN_IN_LINK_MINUTES,
        locale: language,
      },
      purgePropsWhenSent: !signInLinksKeptForMailbox(),
    });
    return true;
  });
  if (made && signInLinksLogged()) {
    log.info("donor sign-in link kept locally (no RESEND_API_KEY): open it to sign in", { toDomain: recipientDomain(to), url });
  }
}
