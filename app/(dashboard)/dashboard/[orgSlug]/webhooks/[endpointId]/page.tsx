import type { Metadata } from "next";
import Link from "next/link";
import { and, count, eq, sql } from "drizzle-orm";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { AdminOnly } from "@/components/dashboard/ops/admin-only";
import styles from "@/components/dashboard/ops/ops.module.css";
import { Pager } from "@/components/dashboard/ops/pager";
import { RetryDeliveryButton } from "@/components/dashboard/ops/retry-delivery-button";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/card";
import { EmptyList } from "@/components/dashboard/ops/list-page";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { getDb } from "@/db";
import { listWebhookDeliveries } from "@/db/queries/webhooks";
import { outbox } from "@/db/schema";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { WEBHOOK_DELIVERY_DEFAULT_LIMIT, serializeWebhookDelivery } from "@/lib/schemas/webhooks";
import { OpsTable } from "@/components/dashboard/ops/ops-table";
import { webhookEndpointOr404 } from "../../records";
import { TableHead, num } from "@/components/ui/table";
import { pageFrom, pageHref } from "@/components/dashboard/ops/paging";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhook deliveries" };

type Props = {
  params: Promise<{ orgSlug: string; endpointId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// GET /dashboard/:orgSlug/webhooks/:id: one endpoint's delivery log, newest first, with a retry
// per delivery (ADMIN).
export default async function WebhookDeliveriesPage({ params, searchParams }: Props) {
  const { orgSlug, endpointId } = await params;
  const sp = await searchParams;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/webhooks/${endpointId}`);
  const base = `/dashboard/${org.slug}/webhooks`;
  if (!roleSatisfies(role, "ADMIN")) {
    return <AdminOnly header={<PageHeader eyebrow={<Link href={base}>Webhooks</Link>} title="Delivery log" />} orgSlug={org.slug} />;
  }
  const db = await getDb();
  const { endpoint } = await webhookEndpointOr404(orgSlug, endpointId);
  const page = pageFrom(sp.page);
  const limit = WEBHOOK_DELIVERY_DEFAULT_LIMIT;
  const [{ rows, total }, [{ queued }]] = await Promise.all([
    listWebhookDeliveries(db, endpoint.id, { page, limit }),
    // Deliveries waiting in the outbox (new events, scheduled retries) have no log row yet.
    db
      .select({ queued: count() })
      .from(outbox)
      .where(and(eq(outbox.kind, "webhook"), eq(outbox.status, "PENDING"), sql`${outbox.payload}->>'endpointId' = ${endpoint.id}`)),
  ]);
  const deliveries = rows.map(serializeWebhookDelivery);
  const href = pageHref(`${base}/${encodeURIComponent(endpoint.id)}`);

  return (
    <>
      <AutoRefresh active={queued > 0} everyMs={3000} times={20} />
      <PageHeader
        eyebrow={<Link href={base}>Webhooks</Link>}
        title="Delivery log"
        description={
          <span className={styles.headerMeta}>
            <span className={styles.mono} style={{ color: "var(--ink)", fontWeight: 600 }}>
              {endpoint.url}
            </span>
            {endpoint.enabled ? <Badge tone="ok">Enabled</Badge> : <Badge tone="draft">Disabled</Badge>}
            <span>{endpoint.eventTypes.length === 0 ? "All events" : endpoint.eventTypes.join(", ")}</span>
          </span>
        }
      />
      <div className="stack">
        {!endpoint.enabled ? (
          <Notice tone="warn" title="This endpoint is disabled">
            <p>
              {endpoint.disabledReason ?? "Disabled"}. Nothing is sent to it and retries are refused until it is enabled again on the{" "}
              <Link href={base}>Webhooks</Link> page.
            </p>
          </Notice>
        ) : null}
        {queued > 0 ? (
          <Notice tone="info" live>
            <p>
              {queued} deliver{queued === 1 ? "y is" : "ies are"} waiting to be sent (new events or scheduled retries). This page refreshes
              by itself for a minute.
            </p>
          </Notice>
        ) : null}
        {deliveries.length === 0 ? (
          <EmptyList
            title={page > 1 ? "This page is empty" : "No deliveries yet"}
            icon="⇄"
            href={page > 1 ? href(1) : base}
            linkLabel={page > 1 ? "Go to the first page" : "Send a test event from Webhooks"}
          >
            {page > 1 ? null : "Every attempt to send an event to this endpoint is logged here, with the response it got."}
          </EmptyList>
        ) : (
          <>
            <OpsTable label="Deliveries">
              <caption className="sr-only">Delivery attempts to {endpoint.url}, newest first</caption>
              <TableHead columns={["Time", "Event", "Result", num("Latency"), "Error"]} actions />
              <tbody>
                {deliveries.map((d) => (
                  <tr key={d.id}>
                    <td className="nowrap">
                      <LocalTime iso={d.createdAt} />
                      <span className="sub">attempt {d.attempt}</span>
                    </td>
                    <td>
                      <code style={{ whiteSpace: "nowrap" }}>{d.eventType}</code>
                      <span className={`sub ${styles.mono}`} style={{ fontSize: "0.75rem" }}>
                        {d.eventId}
                      </span>
                    </td>
                    <td className="nowrap">
                      {d.success ? <Badge tone="ok">Succeeded</Badge> : <Badge tone="danger">Failed</Badge>}
                      <span className="sub">{d.statusCode !== null ? `HTTP ${d.statusCode}` : "No response"}</span>
                    </td>
                    <td className="num">{d.latencyMs !== null ? `${d.latencyMs.toLocaleString("en-US")} ms` : "n/a"}</td>
                    <td style={{ minWidth: 160, maxWidth: 300 }}>
                      {d.error ? <span className="small">{d.error}</span> : null}
                      {d.responseBody ? (
                        <details className="small">
                          <summary>Response body</summary>
                          <pre style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", marginTop: 6, fontSize: "0.78rem" }}>
                            {d.responseBody}
                          </pre>
                        </details>
                      ) : null}
                    </td>
                    <td>
                      {endpoint.enabled ? (
                        <RetryDeliveryButton
                          orgSlug={org.slug}
                          endpointId={endpoint.id}
                          deliveryId={d.id}
                          label={`${d.eventType} delivery of ${d.createdAt}`}
                        />
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </OpsTable>
            <Pager page={page} limit={limit} total={total} href={href} noun="deliveries" />
          </>
        )}
      </div>
    </>
  );
}
