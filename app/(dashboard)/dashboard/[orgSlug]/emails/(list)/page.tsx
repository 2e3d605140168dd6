import type { Metadata } from "next";
import Link from "next/link";
import { and, count, desc, eq } from "drizzle-orm";
import { emailSubject } from "@/components/dashboard/ops/email-subject";
import { donorEmailLabel, emailStatus, templateLabel } from "@/components/dashboard/ops/labels";
import styles from "@/components/dashboard/ops/ops.module.css";
import { Pager } from "@/components/dashboard/ops/pager";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/card";
import { EmptyList, StatusTabs } from "@/components/dashboard/ops/list-page";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { getDb } from "@/db";
import { outbox } from "@/db/schema";
import { requireOrg } from "@/lib/auth/server";
import { getEnv } from "@/lib/env";
import { OpsTable } from "@/components/dashboard/ops/ops-table";
import { TableHead } from "@/components/ui/table";
import { oneOf, pageFrom, pageHref, statusCounts } from "@/components/dashboard/ops/paging";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Emails" };

const STATUSES = ["PENDING", "SENT", "FAILED"] as const;
type Status = (typeof STATUSES)[number];
const LIMIT = 25;

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard/:orgSlug/emails: this organization's email outbox (receipts, alerts, tributes, refunds, invitations),
// newest first; without RESEND_API_KEY this is where emails are kept instead of being sent.
export default async function EmailsPage({ params, searchParams }: Props) {
  const { orgSlug } = await params;
  const sp = await searchParams;
  const { org } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/emails`);
  const db = await getDb();
  const delivering = Boolean(getEnv().RESEND_API_KEY);
  const status = oneOf(STATUSES, sp.status);
  const page = pageFrom(sp.page);

  const ofOrg = and(eq(outbox.kind, "email"), eq(outbox.orgId, org.id));
  const where = status ? and(ofOrg, eq(outbox.status, status)) : ofOrg;
  const [rows, byStatus] = await Promise.all([
    db
      .select({
        id: outbox.id,
        payload: outbox.payload,
        status: outbox.status,
        attempts: outbox.attempts,
        lastError: outbox.lastError,
        createdAt: outbox.createdAt,
        sentAt: outbox.sentAt,
      })
      .from(outbox)
      .where(where)
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(LIMIT)
      .offset((page - 1) * LIMIT),
    db.select({ status: outbox.status, n: count() }).from(outbox).where(ofOrg).groupBy(outbox.status),
  ]);
  const { counts, all } = statusCounts(byStatus);
  const total = status ? (counts[status] ?? 0) : all;
  const base = `/dashboard/${org.slug}/emails`;
  const href = pageHref(base, status ? { status } : {});
  const tabLabel = (s: Status) => emailStatus(s, delivering).label;

  return (
    <>
      <PageHeader
        eyebrow="Developers"
        title="Emails"
        description="Receipts, donation alerts, tribute notices, milestones, dispute alerts, refund confirmations and member invitations of this organization, newest first."
      />
      <div className="stack">
        {delivering ? (
          <Notice tone="info">
            <p>Emails are delivered through Resend. This is the outbox: every email queued, with its delivery status and retries.</p>
          </Notice>
        ) : (
          <Notice tone="warn" title="Sandbox email: nothing is sent">
            <p>
              Without <code>RESEND_API_KEY</code> emails are kept here rather than sent. Open one to see exactly what the recipient would
              get. Set the key (and <code>EMAIL_FROM</code>) to deliver them.
            </p>
          </Notice>
        )}
        <StatusTabs
          base={base}
          all={all}
          statuses={STATUSES}
          current={status}
          label={tabLabel}
          counts={counts}
          style={{ marginBottom: 0 }}
        />
        {all === 0 ? (
          <EmptyList title="No emails yet" icon="✉" href={`/dashboard/${org.slug}/campaigns`} linkLabel="Go to your campaigns" primary>
            A receipt to the donor and an alert to your notification address are queued with every successful donation. Make a test donation
            on one of your donate pages to see them here.
          </EmptyList>
        ) : rows.length === 0 ? (
          <EmptyList
            title={status ? `No ${tabLabel(status).toLowerCase()} emails` : "This page is empty"}
            icon="∅"
            href={base}
            linkLabel="Show all emails"
          />
        ) : (
          <div className={styles.section}>
            <OpsTable label="Emails">
              <caption className="sr-only">{status ? `${tabLabel(status)} emails` : "All emails"}, newest first</caption>
              <TableHead columns={["Subject", "To", "Template", "Status", "Queued"]} />
              <tbody>
                {rows.map((r) => {
                  const s = emailStatus(r.status, delivering);
                  const template = String(r.payload.template ?? "unknown");
                  const subject = emailSubject(r.payload);
                  return (
                    <tr key={r.id}>
                      <td className="title-cell" style={{ minWidth: 200 }}>
                        <Link href={`${base}/${r.id}`}>{subject ?? `${templateLabel(template)} (no subject)`}</Link>
                      </td>
                      <td className="break">{donorEmailLabel(String(r.payload.to ?? ""))}</td>
                      <td className="nowrap">{templateLabel(template)}</td>
                      <td className="break">
                        <Badge tone={s.tone}>{s.label}</Badge>
                        <span className="sub">
                          {r.attempts} attempt{r.attempts === 1 ? "" : "s"}
                          {r.status !== "SENT" && r.lastError ? ` · ${r.lastError}` : ""}
                        </span>
                      </td>
                      <td className="nowrap">
                        <LocalTime iso={r.createdAt.toISOString()} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </OpsTable>
            <Pager page={page} limit={LIMIT} total={total} href={href} noun="emails" />
          </div>
        )}
      </div>
    </>
  );
}
