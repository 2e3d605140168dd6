"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { LocalTime } from "@/components/ui/local-time";
import type { AuditEntryView } from "@/lib/schemas/audit-log";
import { auditActionLabel, auditDetails, targetHref, targetName, targetNoun } from "./audit-labels";
import styles from "./ops.module.css";
import { LoadMore, useCursorList, type CursorTableProps } from "./load-more";
import { OpsTable } from "./ops-table";
import { TableHead } from "@/components/ui/table";

const NOUNS = { one: "entry", many: "entries" };

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
}: CursorTableProps<AuditEntryView>) {
  const list = useCursorList({
    rows: initial,
    nextCursor: initialCursor,
    apiPath: `/api/orgs/${encodeURIComponent(orgSlug)}/audit-log`,
    apiQuery,
    nouns: NOUNS,
    focusSelector: "td",
  });
  const { rows, tbody } = list;

  return (
    <>
      <OpsTable label="Audit log" cards>
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={["Action", "When", "By", "On", "What changed"]} />
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
                </td>
                <td className="nowrap card-status" data-label="When">
                  <LocalTime iso={e.createdAt} />
                </td>
                <td data-label="By" className={styles.auditWrap}>
                  {e.actor.label ?? e.actor.id}{" "}
                  {e.actor.type === "api_key" ? (
                    <Badge tone="role" plain>
                      API key
                    </Badge>
                  ) : null}
                  <span className={`sub ${styles.mono}`}>
                    <span className="sr-only">From address </span>
                    {e.clientIp ?? "unknown address"}
                  </span>
                  {e.requestId ? (
                    <span className={`sub ${styles.mono}`}>
                      <span className="sr-only">Request ID </span>
                      {e.requestId}
                    </span>
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
                <td data-label="What changed" className={styles.auditWrap} style={{ minWidth: 180 }}>
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
              </tr>
            );
          })}
        </tbody>
      </OpsTable>
      <LoadMore list={list} nextHref={nextHref} nouns={NOUNS} startedAtCursor={startedAtCursor} endText="End of the log." />
    </>
  );
}
