"use client";

import Link from "next/link";
import { useRef, useState, type MouseEvent } from "react";
import { api } from "@/components/dashboard/api-client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import type { AuditEntryView } from "@/lib/schemas/audit-log";
import { auditActionLabel, auditDetails, targetHref, targetName, targetNoun } from "./audit-labels";
import styles from "./ops.module.css";
import { OpsTable } from "./ops-table";

type Page = { data: AuditEntryView[]; pagination: { limit: number; nextCursor: string | null } };

/**
 * The audit log, newest first. The first page is rendered by the server; "Load more" follows the
 * API's cursor (GET /api/orgs/:idOrSlug/audit-log, same filters), appends the entries and moves
 * focus to the first new one. Without JavaScript it is a plain link to the next page. On a phone
 * each entry is a card: the action first, its time beside it.
 */
export function AuditLogTable({
  orgSlug,
  rows: initial,
  nextCursor: initialCursor,
  apiQuery,
  nextHref,
  caption,
  startedAtCursor = false,
}: {
  orgSlug: string;
  rows: AuditEntryView[];
  nextCursor: string | null;
  /** The list's filters as the API's query string (no cursor). */
  apiQuery: string;
  /** The server-rendered next page, for the link's href. */
  nextHref: string | null;
  caption: string;
  startedAtCursor?: boolean;
}) {
  const [rows, setRows] = useState(initial);
  const [cursor, setCursor] = useState(initialCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announce, setAnnounce] = useState("");
  const tbody = useRef<HTMLTableSectionElement>(null);

  async function loadMore(e: MouseEvent<HTMLAnchorElement | HTMLButtonElement>) {
    e.preventDefault();
    if (!cursor || loading) return;
    setLoading(true);
    setError(null);
    const qs = [apiQuery, `cursor=${encodeURIComponent(cursor)}`].filter(Boolean).join("&");
    const res = await api<Page>("GET", `/api/orgs/${encodeURIComponent(orgSlug)}/audit-log?${qs}`);
    setLoading(false);
    if (!res.ok) {
      setError(res.error);
      return;
    }
    const firstNew = rows.length;
    setRows((r) => [...r, ...res.data.data]);
    setCursor(res.data.pagination.nextCursor);
    const n = res.data.data.length;
    setAnnounce(`${n} more entr${n === 1 ? "y" : "ies"} loaded` + (res.data.pagination.nextCursor ? "" : "; that is all of them"));
    requestAnimationFrame(() => tbody.current?.rows[firstNew]?.querySelector<HTMLElement>("td")?.focus());
  }

  return (
    <>
      <OpsTable label="Audit log" cards>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Action</th>
            <th scope="col">When</th>
            <th scope="col">By</th>
            <th scope="col">On</th>
            <th scope="col">What changed</th>
            <th scope="col">Request</th>
          </tr>
        </thead>
        <tbody ref={tbody}>
          {rows.map((e) => {
            const href = targetHref(orgSlug, e.action, e.target);
            const name = targetName(e.data);
            const details = auditDetails(e.data);
            const noun = targetNoun(e.target.type);
            return (
              <tr key={e.id}>
                <td className="card-lead" data-label="Action" tabIndex={-1}>
                  {auditActionLabel(e.action)}
                  <span className={`sub ${styles.mono}`}>{e.action}</span>
                </td>
                <td className="nowrap card-status" data-label="When">
                  <LocalTime iso={e.createdAt} />
                </td>
                <td data-label="By">
                  {e.actor.label ?? e.actor.id}{" "}
                  {e.actor.type === "api_key" ? (
                    <Badge tone="role" plain>
                      API key
                    </Badge>
                  ) : null}
                </td>
                <td data-label="On" style={{ minWidth: 140 }}>
                  {href ? (
                    <Link href={href}>
                      {name ?? noun}
                      {name ? <span className="sr-only"> ({noun.toLowerCase()})</span> : null}
                    </Link>
                  ) : (
                    (name ?? noun)
                  )}
                  {name ? <span className="sub">{noun}</span> : null}
                </td>
                <td data-label="What changed" style={{ minWidth: 180 }}>
                  {details.length === 0 ? (
                    <span className="muted">—</span>
                  ) : (
                    <ul className={styles.auditDetails}>
                      {details.map((d, i) => (
                        <li key={i}>{d}</li>
                      ))}
                    </ul>
                  )}
                </td>
                <td data-label="Request">
                  <span className={styles.mono}>{e.clientIp ?? "unknown address"}</span>
                  {e.requestId ? (
                    <span className={`sub ${styles.mono}`}>
                      <span className="sr-only">Request ID </span>
                      {e.requestId}
                    </span>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </OpsTable>
      <div className={styles.loadMore}>
        <p className="sr-only" role="status" aria-live="polite">
          {announce}
        </p>
        {error ? (
          <Notice
            tone="error"
            live
            actions={
              <Button variant="secondary" size="small" onClick={loadMore}>
                Try again
              </Button>
            }
          >
            <p>Could not load more entries: {error}</p>
          </Notice>
        ) : null}
        {cursor && rows.length === initial.length && nextHref ? (
          <a className="button secondary" href={nextHref} onClick={loadMore} aria-busy={loading || undefined}>
            {loading ? <span className="spinner" aria-hidden="true" /> : null}
            {loading ? "Loading…" : "Load more entries"}
          </a>
        ) : cursor ? (
          <Button variant="secondary" onClick={loadMore} loading={loading}>
            {loading ? "Loading…" : "Load more entries"}
          </Button>
        ) : (
          <p className="small muted">
            {startedAtCursor ? "End of the log." : `${rows.length} entr${rows.length === 1 ? "y" : "ies"} shown: that is all that match.`}
          </p>
        )}
      </div>
    </>
  );
}
