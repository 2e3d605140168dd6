import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { createHash } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { isPast } from "@/components/dashboard/ops/dates";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { getDb } from "@/db";
import { outbox, verificationTokens } from "@/db/schema";
import { isMailboxAvailable } from "@/lib/auth/modes";
import { MAGIC_LINK_MAX_AGE_SECONDS } from "@/lib/auth/options";
import type { MagicLinkProps } from "@/lib/email/types";
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

// GET /sandbox/mailbox: the latest sign-in links of a local install that sends no email, for a
// loopback client only (404 for anyone else, and on any other install).
export default async function SandboxMailbox() {
  if (!isMailboxAvailable(await headers())) notFound();
  const db = await getDb();
  const rows = await db
    .select({ id: outbox.id, payload: outbox.payload, createdAt: outbox.createdAt })
    .from(outbox)
    .where(and(eq(outbox.kind, "email"), sql`${outbox.payload}->>'template' = 'magic-link'`))
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(SHOWN);
  // A link whose token is gone was used (next-auth deletes a token when it signs someone in).
  const hashes = rows.map((r) => storedToken((r.payload as { props?: MagicLinkProps }).props?.url ?? "")).filter((h): h is string => !!h);
  const unused = new Set(
    hashes.length === 0
      ? []
      : (
          await db.select({ token: verificationTokens.token }).from(verificationTokens).where(inArray(verificationTokens.token, hashes))
        ).map((t) => t.token),
  );

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="simple-top">
        <Link className="brand" href="/">
          <span className="brand-mark" aria-hidden="true">
            G
          </span>
          Goodfund
        </Link>
        <Link className="button secondary small" href="/signin">
          Back to sign in
        </Link>
      </header>
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
              This page exists only on a local install in sandbox mode. Each link works once and for one hour. Refresh after asking for a
              link.
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
                const payload = r.payload as { to?: string; props?: MagicLinkProps };
                const url = payload.props?.url ?? "";
                const expired = isPast(new Date(r.createdAt.getTime() + MAGIC_LINK_MAX_AGE_SECONDS * 1000));
                const token = storedToken(url);
                const used = !expired && (!token || !unused.has(token));
                return (
                  <li key={r.id} className="card mail-item">
                    <div className="meta">
                      <span>
                        To <strong style={{ color: "var(--ink)" }}>{payload.to}</strong>
                      </span>
                      <LocalTime iso={r.createdAt.toISOString()} />
                      {expired ? (
                        <Badge tone="draft">Expired</Badge>
                      ) : used ? (
                        <Badge tone="draft">Used</Badge>
                      ) : (
                        <Badge tone="ok">Valid for an hour (once)</Badge>
                      )}
                    </div>
                    <div className="button-row">
                      {expired || used ? null : (
                        <a className="button" href={url}>
                          Sign in as {payload.to}
                        </a>
                      )}
                    </div>
                    <p className="link muted" style={{ margin: 0 }}>
                      <span className="sr-only">Link: </span>
                      {url}
                    </p>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      </main>
    </>
  );
}
