import type { Metadata } from "next";
import Link from "next/link";
import { donorEmailLabel, emailStatus, templateLabel } from "@/components/dashboard/ops/labels";
import styles from "@/components/dashboard/ops/ops.module.css";
import { Badge } from "@/components/ui/badge";
import { Card, PageHeader } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { DONATION_EMAIL_KINDS } from "@/db/queries/donations";
import { renderEmail, type RenderedEmail } from "@/lib/email/render";
import type { EmailMessage } from "@/lib/email/types";
import { getEnv } from "@/lib/env";
import { loadEmail } from "../../records";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string; emailId: string }> };

async function render(payload: Record<string, unknown>): Promise<RenderedEmail | null> {
  try {
    return await renderEmail(payload as unknown as EmailMessage);
  } catch {
    return null;
  }
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { row } = await loadEmail(props);
  return { title: `${templateLabel(String(row.payload.template ?? "Email"))} email` };
}

/** The donation an email was queued for, from its outbox key `email:<kind>:<donationId>`. */
function donationOf(dedupeKey: string): string | null {
  const m = /^email:([a-z-]+):(.+)$/.exec(dedupeKey);
  return m && (DONATION_EMAIL_KINDS as readonly string[]).includes(m[1]) ? m[2] : null;
}

// GET /dashboard/:orgSlug/emails/:id: one email as rendered for the recipient (subject, from,
// to, the HTML in a sandboxed frame, the plain-text part) and its delivery status.
export default async function EmailPage(props: Props) {
  const { org, row } = await loadEmail(props);
  const env = getEnv();
  const delivering = Boolean(env.RESEND_API_KEY);
  const rendered = await render(row.payload);
  // An erased donor's emails keep no address or content: "Erased donor" stands for the placeholder.
  const to = donorEmailLabel(String(row.payload.to ?? ""));
  const template = String(row.payload.template ?? "unknown");
  const s = emailStatus(row.status, delivering);
  const donationId = donationOf(row.dedupeKey);
  const base = `/dashboard/${org.slug}`;

  return (
    <>
      <PageHeader
        eyebrow={<Link href={`${base}/emails`}>Emails</Link>}
        title={rendered?.subject ?? `${templateLabel(template)} email`}
        description={
          <span className={styles.headerMeta}>
            <Badge tone={s.tone}>{s.label}</Badge>
            <span>{templateLabel(template)}</span>
            <span>
              queued <LocalTime iso={row.createdAt.toISOString()} />
            </span>
          </span>
        }
      />
      <div className="stack">
        {!delivering ? (
          <Notice tone="warn">
            <p>
              Sandbox email: without <code>RESEND_API_KEY</code> this email was kept here rather than sent to {to}.
            </p>
          </Notice>
        ) : null}
        {row.status === "FAILED" ? (
          <Notice tone="error" title="Delivery failed for good">
            <p>{row.lastError ?? "The provider refused it after every retry."}</p>
          </Notice>
        ) : null}
        <Card title="Envelope" id="envelope">
          <dl className="kv" style={{ marginTop: 12 }}>
            <dt>Subject</dt>
            <dd>{rendered?.subject ?? <span className="muted">Could not be rendered</span>}</dd>
            <dt>From</dt>
            <dd>{env.EMAIL_FROM}</dd>
            <dt>To</dt>
            <dd>{to}</dd>
            <dt>Status</dt>
            <dd>
              <Badge tone={s.tone}>{s.label}</Badge>{" "}
              <span className="muted small">
                {row.attempts} attempt{row.attempts === 1 ? "" : "s"}
                {row.sentAt ? (
                  <>
                    {" · done "}
                    <LocalTime iso={row.sentAt.toISOString()} />
                  </>
                ) : null}
              </span>
            </dd>
            {row.lastError && row.status !== "FAILED" ? (
              <>
                <dt>{row.status === "SENT" ? "Note" : "Last error"}</dt>
                <dd>{row.lastError}</dd>
              </>
            ) : null}
            {donationId ? (
              <>
                <dt>Donation</dt>
                <dd>
                  <Link href={`${base}/donations/${encodeURIComponent(donationId)}`}>View the donation</Link>
                </dd>
              </>
            ) : null}
          </dl>
        </Card>
        {rendered ? (
          <>
            <Card
              title="As the recipient sees it"
              id="html"
              description="The HTML part, shown in a sandboxed frame: no scripts, no forms, links don't navigate."
            >
              <iframe className={styles.frame} srcDoc={rendered.html} sandbox="" title={`Email to ${to}: ${rendered.subject}`} />
            </Card>
            <Card title="Plain-text part" id="text">
              <pre className={styles.plainText} tabIndex={0} role="region" aria-label="Plain-text part">
                {rendered.text}
              </pre>
            </Card>
          </>
        ) : (
          <Notice tone="error" title="This email can't be rendered">
            <p>Its template or data is not one this version of Goodfund knows. The raw data is kept in the outbox.</p>
          </Notice>
        )}
      </div>
    </>
  );
}
