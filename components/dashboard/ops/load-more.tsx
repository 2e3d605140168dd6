"use client";

import { useEffect, useRef, useState, type MouseEvent } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import styles from "./ops.module.css";

type Page<T> = { data: T[]; pagination: { limit: number; nextCursor: string | null } };

/** How a list names what it holds: "donation"/"donations", "entry"/"entries". */
export type Nouns = { one: string; many: string };

/** What a cursor-paged table gets from the server page that renders it. */
export type CursorTableProps<T> = {
  orgSlug: string;
  rows: T[];
  nextCursor: string | null;
  /** The list's filters as the API's query string (no cursor). */
  apiQuery: string;
  /** The server-rendered next page, for the link's href. */
  nextHref: string | null;
  caption: string;
  /** This page began at a cursor (a "next page" link without JavaScript), so earlier rows are not shown. */
  startedAtCursor?: boolean;
};

const count = (n: number, nouns: Nouns) => `${n} ${n === 1 ? nouns.one : nouns.many}`;

/**
 * A cursor-paginated list whose first page the server rendered: `loadMore` fetches the API's next
 * page (`apiPath?{apiQuery}&cursor=…`, the same filters), appends it, announces it and moves focus
 * to the first new row's `focusSelector`.
 */
export function useCursorList<T>({
  rows: initial,
  nextCursor,
  apiPath,
  apiQuery,
  nouns,
  focusSelector,
}: {
  rows: T[];
  nextCursor: string | null;
  apiPath: string;
  apiQuery: string;
  nouns: Nouns;
  focusSelector: string;
}) {
  const [rows, setRows] = useState(initial);
  const [cursor, setCursor] = useState(nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announce, setAnnounce] = useState("");
  const tbody = useRef<HTMLTableSectionElement>(null);
  // The first row a "Load more" appended, focused once React has rendered it.
  const focusRow = useRef<number | null>(null);
  useEffect(() => {
    if (focusRow.current === null) return;
    tbody.current?.rows[focusRow.current]?.querySelector<HTMLElement>(focusSelector)?.focus();
    focusRow.current = null;
  }, [rows, focusSelector]);

  async function loadMore(e: MouseEvent<HTMLAnchorElement | HTMLButtonElement>) {
    e.preventDefault();
    if (!cursor || loading) return;
    setLoading(true);
    setError(null);
    const qs = [apiQuery, `cursor=${encodeURIComponent(cursor)}`].filter(Boolean).join("&");
    const res = await api<Page<T>>("GET", `${apiPath}?${qs}`);
    setLoading(false);
    if (!res.ok) {
      setError(res.error);
      return;
    }
    focusRow.current = rows.length;
    setRows((r) => [...r, ...res.data.data]);
    setCursor(res.data.pagination.nextCursor);
    const n = res.data.data.length;
    setAnnounce(`${n} more ${n === 1 ? nouns.one : nouns.many} loaded` + (res.data.pagination.nextCursor ? "" : "; that is all of them"));
  }

  return { rows, cursor, loading, error, announce, tbody, loadMore, initialCount: initial.length };
}

/**
 * The foot of such a list: the live announcement, a retry on failure, and "Load more", a plain
 * link to the server-rendered next page until JavaScript has loaded a page itself.
 */
export function LoadMore({
  list,
  nextHref,
  nouns,
  startedAtCursor,
  endText,
}: {
  list: Pick<ReturnType<typeof useCursorList>, "rows" | "cursor" | "loading" | "error" | "announce" | "loadMore" | "initialCount">;
  nextHref: string | null;
  nouns: Nouns;
  startedAtCursor: boolean;
  /** What the end says when the page began at a cursor ("End of the list."). */
  endText: string;
}) {
  const { rows, cursor, loading, error, announce, loadMore } = list;
  const label = loading ? "Loading…" : `Load more ${nouns.many}`;
  return (
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
          <p>
            Could not load more {nouns.many}: {error}
          </p>
        </Notice>
      ) : null}
      {cursor && rows.length === list.initialCount && nextHref ? (
        <a className="button secondary" href={nextHref} onClick={loadMore} aria-busy={loading || undefined}>
          {loading ? <span className="spinner" aria-hidden="true" /> : null}
          {label}
        </a>
      ) : cursor ? (
        <Button variant="secondary" onClick={loadMore} loading={loading}>
          {label}
        </Button>
      ) : (
        <p className="small muted">{startedAtCursor ? endText : `${count(rows.length, nouns)} shown: that is all that match.`}</p>
      )}
    </div>
  );
}
