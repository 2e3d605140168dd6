"use client";

import Link from "next/link";
import { useRef, useState, type MouseEvent } from "react";
import { api } from "@/components/dashboard/api-client";
import { formatMoney } from "@/components/dashboard/money";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { DonationStatusBadge, GiftKindMarker } from "./badges";
import { donorName } from "./labels";
import styles from "./ops.module.css";
import { OpsTable } from "./ops-table";

/** The fields of a donation (as the API serializes it) that a row of the list shows. */
export type DonationRowData = {
  id: string;
  createdAt: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  anonymous: boolean;
  amount: number;
  currency: string;
  status: string;
  campaignId: string;
  recurringInterval: string | null;
  isRenewal: boolean;
};

type Page = { data: DonationRowData[]; pagination: { limit: number; nextCursor: string | null } };

/**
 * The donations list. The first page is rendered by the server; "Load more" follows the API's
 * cursor (GET /api/orgs/:idOrSlug/donations, same filters) and appends the rows in place, then
 * moves focus to the first new row. Without JavaScript it is a plain link to the next page.
 */
export function DonationsTable({
  orgSlug,
  rows: initial,
  nextCursor: initialCursor,
  apiQuery,
  nextHref,
  campaigns,
  caption,
  startedAtCursor = false,
}: {
  orgSlug: string;
  rows: DonationRowData[];
  nextCursor: string | null;
  /** The list's filters as the API's query string (no cursor). */
  apiQuery: string;
  /** The server-rendered next page, for the link's href. */
  nextHref: string | null;
  campaigns: Record<string, string>;
  caption: string;
  /** This page began at a cursor (a "next page" link without JavaScript), so earlier rows are not shown. */
  startedAtCursor?: boolean;
}) {
  const [rows, setRows] = useState(initial);
  const [cursor, setCursor] = useState(initialCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announce, setAnnounce] = useState("");
  const tbody = useRef<HTMLTableSectionElement>(null);
  const base = `/dashboard/${orgSlug}`;

  async function loadMore(e: MouseEvent<HTMLAnchorElement | HTMLButtonElement>) {
    e.preventDefault();
    if (!cursor || loading) return;
    setLoading(true);
    setError(null);
    const qs = [apiQuery, `cursor=${encodeURIComponent(cursor)}`].filter(Boolean).join("&");
    const res = await api<Page>("GET", `/api/orgs/${encodeURIComponent(orgSlug)}/donations?${qs}`);
    setLoading(false);
    if (!res.ok) {
      setError(res.error);
      return;
    }
    const firstNew = rows.length;
    setRows((r) => [...r, ...res.data.data]);
    setCursor(res.data.pagination.nextCursor);
    setAnnounce(
      `${res.data.data.length} more donation${res.data.data.length === 1 ? "" : "s"} loaded` +
        (res.data.pagination.nextCursor ? "" : "; that is all of them"),
    );
    requestAnimationFrame(() => tbody.current?.rows[firstNew]?.querySelector<HTMLElement>("a")?.focus());
  }

  return (
    <>
      <OpsTable label="Donations" cards>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Donor</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col">Status</th>
            <th scope="col">Campaign</th>
            <th scope="col">Type</th>
          </tr>
        </thead>
        <tbody ref={tbody}>
          {rows.map((d) => {
            const name = donorName(d);
            return (
              <tr key={d.id}>
                <td className="nowrap" data-label="Date">
                  <LocalTime iso={d.createdAt} />
                </td>
                <td className="title-cell" data-label="Donor">
                  <Link href={`${base}/donations/${encodeURIComponent(d.id)}`}>
                    {name}
                    <span className="sr-only"> ({formatMoney(d.amount, d.currency)} donation)</span>
                  </Link>
                  <span className="sub">
                    {name !== d.email ? d.email : null}
                    {d.anonymous ? `${name !== d.email ? " · " : ""}asked to be anonymous` : null}
                  </span>
                </td>
                <td className="num card-lead" data-label="Amount">
                  {formatMoney(d.amount, d.currency)}
                </td>
                <td className="card-status" data-label="Status">
                  <DonationStatusBadge status={d.status} />
                </td>
                <td style={{ minWidth: 140 }} data-label="Campaign">
                  <Link href={`${base}/campaigns/${encodeURIComponent(d.campaignId)}`}>{campaigns[d.campaignId] ?? "Campaign"}</Link>
                </td>
                <td className="nowrap" data-label="Type">
                  <GiftKindMarker recurringInterval={d.recurringInterval} isRenewal={d.isRenewal} />
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
            <p>Could not load more donations: {error}</p>
          </Notice>
        ) : null}
        {cursor && rows.length === initial.length && nextHref ? (
          <a className="button secondary" href={nextHref} onClick={loadMore} aria-busy={loading || undefined}>
            {loading ? <span className="spinner" aria-hidden="true" /> : null}
            {loading ? "Loading…" : "Load more donations"}
          </a>
        ) : cursor ? (
          <Button variant="secondary" onClick={loadMore} loading={loading}>
            {loading ? "Loading…" : "Load more donations"}
          </Button>
        ) : (
          <p className="small muted">
            {startedAtCursor ? "End of the list." : `${rows.length} donation${rows.length === 1 ? "" : "s"} shown: that is all that match.`}
          </p>
        )}
      </div>
    </>
  );
}
