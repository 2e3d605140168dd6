import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { createHash } from "node:crypto";
import { and, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { isPast } from "@/components/dashboard/ops/dates";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { SimpleTop } from "@/components/ui/brand";
import { MailItem } from "@/components/sandbox/mail-item";
import { Notice } from "@/components/ui/notice";
import { PlanPaymentMails } from "@/components/sandbox/plan-payment-mails";
import { StatementMails } from "@/components/sandbox/statement-mails";
import { TicketReceiptMails } from "@/components/sandbox/ticket-receipt-mails";
import { getDb } from "@/db";
import { donorSignInLinks, fundraiserSignUps, outbox, verificationTokens } from "@/db/schema";
import { isMailboxAvailable } from "@/lib/auth/modes";
import { MAGIC_LINK_MAX_AGE_SECONDS } from "@/lib/auth/options";
import type { DonorSignInProps, FundraiserConfirmProps, MagicLinkProps } from "@/lib/email/types";
import { FUNDRAISER_LINK_HOURS } from "@/lib/services/fundraisers/start-fundraiser";
import { DONOR_SIGN_IN_LINK_MINUTES, donorSignInTokenHash } from "@/lib/services/donor-accounts/request-sign-in-link";
import { getEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Sandbox mailbox", robots: { index: false } };
export const dynamic = "force-dynamic";

const SHOWN = 20;

/** The stored form of a link's token (next-auth keeps only sha256(token + secret)). */
function storedToken(url: string): string | null {
  try {
    const token = new URL(url).searchParams.get("token");
    return token ? createHash("sha256").update(`${token}${getEnv().nextAuthSecret}`).digest("hex") : null;
  } catch {
    return null;
  }
}

/** The stored form of a donor account link's token (its SHA-256). */
function donorTokenHash(url: string): string | null {
  try {
    const token = new URL(url).searchParams.get("token");
    return token ? donorSignInTokenHash(token) : null;
  } catch {
    return null;
  }
}

// GET /sandbox/mailbox: the latest sign-in links of a local install that sends no email, for a
// loopback client only (404 for anyone else, and on any other install).
export default async function SandboxMailbox() {
  if (!isMailboxAvailable(await headers())) notFound();
  const db = await getDb();
  const emailsOf = (templates: SQL) =>
    db
      .select({ id: outbox.id, payload: outbox.payload, createdAt: outbox.createdAt })
      .from(outbox)
      .where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' in ${templates}`))
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(SHOWN);
  const [rows, statements, planPayments, ticketReceipts] = await Promise.all([
    emailsOf(sql`('magic-link', 'donor-sign-in', 'fundraiser-confirm')`),
    emailsOf(sql`('year-end-statement')`),
    emailsOf(sql`('plan-payment-issue')`),
    db
      .select({ id: outbox.id, payload: outbox.payload, createdAt: outbox.createdAt })
      .from(outbox)
      .where(
        and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = 'receipt'`, sql`${outbox.payload}->'props' ? 'ticketCodes'`),
      )
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(SHOWN),
  ]);
  // A link whose token is gone was used (next-auth deletes a token when it signs someone in).
  const isDonorLink = (payload: unknown) => (payload as { template?: string }).template === "donor-sign-in";
  // A supporter's fundraiser confirmation link (single use, FUNDRAISER_LINK_HOURS): hashed like a donor's.
  const isFundraiserLink = (payload: unknown) => (payload as { template?: string }).template === "fundraiser-confirm";
  const hashes = rows
    .filter((r) => !isDonorLink(r.payload) && !isFundraiserLink(r.payload))
    .map((r) => storedToken((r.payload as { props?: MagicLinkProps }).props?.url ?? ""))
    .filter((h): h is string => !!h);
  // Donor account links (single use, DONOR_SIGN_IN_LINK_MINUTES): used once their row has `used_at`.
  const donorHashes = rows
    .filter((r) => isDonorLink(r.payload))
    .map((r) => donorTokenHash((r.payload as { props?: DonorSignInProps }).props?.url ?? ""))
    .filter((h): h is string => !!h);
  const donorUnused = new Set(
    donorHashes.length === 0
      ? []
      : (
          await db
            .select({ tokenHash: donorSignInLinks.tokenHash })
            .from(donorSignInLinks)
            .where(and(inArray(donorSignInLinks.tokenHash, donorHashes), isNull(donorSignInLinks.usedAt)))
        ).map((t) => t.tokenHash),
  );
  const fundraiserHashes = rows
    .filter((r) => isFundraiserLink(r.payload))
    .map((r) => donorTokenHash((r.payload as { props?: FundraiserConfirmProps }).props?.url ?? ""))
    .filter((h): h is string => !!h);
  const fundraiserUnused = new Set(
    fundraiserHashes.length === 0
      ? []
      : (
          await db
            .select({ tokenHash: fundraiserSignUps.tokenHash })
            .from(fundraiserSignUps)
            .where(and(inArray(fundraiserSignUps.tokenHash, fundraiserHashes), isNull(fundraiserSignUps.usedAt)))
        ).map((t) => t.tokenHash),
  );
  const unused = new Set(
    hashes.length === 0
      ? []
      : (
          await db.select({ token: verificationTokens.token }).from(verificationTokens).where(inArray(verificationTokens.token, hashes))
        ).map((t) => t.token),
  );

  return (
    <>
      <SimpleTop home="/">
        <Link className="button secondary small" href="/signin">
          Back to sign in
        </Link>
      </SimpleTop>
      <main id="main" className="simple-main" tabIndex={-1}>
        <div className="page-header">
          <div>
            <p className="eyebrow">Sandbox</p>
            <h1>Mailbox</h1>
            <p>Sign-in emails this install kept instead of sending (no RESEND_API_KEY). Newest first.</p>
          </div>
        </div>
        <div className="stack">
          <Notice tone="warn">
            <p>
              This page exists only on a local install in sandbox mode. Each link works once: a dashboard sign-in link for one hour, a donor
              account link for 15 minutes. Refresh after asking for a link.
            </p>
          </Notice>
          {rows.length === 0 ? (
            <EmptyState
              title="No sign-in emails yet"
              icon="✉"
              action={
                <Link className="button" href="/signin">
                  Ask for a sign-in link
                </Link>
              }
            >
              Enter your email on the sign-in page and the link will show up here.
            </EmptyState>
          ) : (
            <ul className="mail-list plain-list" aria-label="Sign-in emails">
              {rows.map((r) => {
                const payload = r.payload as { to?: string; props?: MagicLinkProps | DonorSignInProps | FundraiserConfirmProps };
                const url = payload.props?.url ?? "";
                const fundraiserLink = isFundraiserLink(r.payload);
                const donorLink = isDonorLink(r.payload);
                const maxAgeSeconds = fundraiserLink
                  ? FUNDRAISER_LINK_HOURS * 3600
                  : donorLink
                    ? DONOR_SIGN_IN_LINK_MINUTES * 60
                    : MAGIC_LINK_MAX_AGE_SECONDS;
                const expired = isPast(new Date(r.createdAt.getTime() + maxAgeSeconds * 1000));
                const token = donorLink || fundraiserLink ? donorTokenHash(url) : storedToken(url);
                const used = !expired && (!token || !(fundraiserLink ? fundraiserUnused : donorLink ? donorUnused : unused).has(token));
                return (
                  <MailItem
                    key={r.id}
                    to={payload.to}
                    createdAt={r.createdAt}
                    meta={
                      expired ? (
                        <Badge tone="draft">Expired</Badge>
                      ) : used ? (
                        <Badge tone="draft">Used</Badge>
                      ) : (
                        <Badge tone="ok">
                          {fundraiserLink
                            ? "Valid for 24 hours (once)"
                            : donorLink
                              ? "Valid for 15 minutes (once)"
                              : "Valid for an hour (once)"}
                        </Badge>
                      )
                    }
                  >
                    <div className="button-row">
                      {expired || used ? null : (
                        <a className="button" href={url}>
                          {fundraiserLink
                            ? `Open the fundraiser link for ${payload.to}`
                            : donorLink
                              ? `Open the donor account link for ${payload.to}`
                              : `Sign in as ${payload.to}`}
                        </a>
                      )}
                    </div>
                    <p className="link muted" style={{ margin: 0 }}>
                      <span className="sr-only">Link: </span>
                      {url}
                    </p>
                  </MailItem>
                );
              })}
            </ul>
          )}
          <PlanPaymentMails mails={planPayments} />
          <StatementMails mails={statements} />
          <TicketReceiptMails mails={ticketReceipts} />
        </div>
      </main>
    </>
  );
}
