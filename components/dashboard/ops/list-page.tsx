import Form from "next/form";
import Link from "next/link";
import type { CSSProperties, ReactNode } from "react";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/notice";
import styles from "./ops.module.css";

type FilterActionsProps = {
  hint: ReactNode;
  /** Where clearing leads; no link when nothing is filtered. */
  clearHref: string | null;
  clearLabel?: string;
  submitLabel?: string;
};

/**
 * A list's filter form, sent with GET to `action`: its fields in a grid, then the foot
 * (FilterActions). `before` goes ahead of the grid (hidden inputs).
 */
export function FilterForm({
  action,
  label,
  before,
  children,
  ...foot
}: FilterActionsProps & { action: string; label: string; before?: ReactNode; children: ReactNode }) {
  return (
    <Form action={action} className={`card ${styles.filters}`} aria-label={label}>
      {before}
      <div className={styles.filterGrid}>{children}</div>
      <FilterActions {...foot} />
    </Form>
  );
}

/** A page header's "Export CSV" link; `what` tells screen readers what the file holds. */
export function ExportCsvLink({ href, what }: { href: string; what: string }) {
  return (
    <a className="button secondary" href={href}>
      Export CSV<span className="sr-only"> {what}</span>
    </a>
  );
}

/** The foot of a list's filter form: a hint, "Clear filters" when some apply, and the submit button. */
export function FilterActions({ hint, clearHref, clearLabel = "Clear filters", submitLabel = "Apply filters" }: FilterActionsProps) {
  return (
    <div className={styles.filterActions}>
      <span className={`small muted ${styles.grow}`}>{hint}</span>
      {clearHref ? (
        <Link className="button ghost" href={clearHref}>
          {clearLabel}
        </Link>
      ) : null}
      <button type="submit" className="button">
        {submitLabel}
      </button>
    </div>
  );
}

/**
 * Above a cursor-paginated list: a warning when the page link's cursor was no longer valid (the
 * newest rows are shown instead), or, on a later page, the way back to the newest.
 */
export function CursorNotices({
  base,
  pageParams,
  rawCursor,
  cursor,
  noun,
}: {
  base: string;
  /** The list's filters, without the cursor. */
  pageParams: URLSearchParams;
  rawCursor: string | undefined;
  /** The decoded cursor: null when absent or invalid. */
  cursor: unknown;
  /** "donations", "entries". */
  noun: string;
}) {
  if (rawCursor && !cursor) {
    return (
      <div style={{ marginBottom: 12 }}>
        <Notice tone="warn">
          <p>
            That page link is no longer valid, so the newest {noun} are shown. <Link href={base}>Start from the top</Link>.
          </p>
        </Notice>
      </div>
    );
  }
  if (!cursor) return null;
  return (
    <p className="small" style={{ marginTop: 0 }}>
      Showing older {noun}. <Link href={`${base}${pageParams.size ? `?${pageParams}` : ""}`}>Back to the newest</Link>
    </p>
  );
}

/**
 * Tabs over a list, one a status, each with its count: "All" leads to `base`, a status to
 * `base?status=…`. Nothing while the list is empty.
 */
export function StatusTabs<S extends string>({
  base,
  all,
  statuses,
  current,
  label,
  counts,
  style,
}: {
  base: string;
  /** How many there are in all statuses. */
  all: number;
  statuses: readonly S[];
  /** The status shown; null for all. */
  current: S | null;
  label: (status: S) => string;
  counts: Partial<Record<S, number>>;
  style?: CSSProperties;
}) {
  if (all === 0) return null;
  return (
    <nav className="tabs" aria-label="Filter by status" style={style}>
      <Link href={base} aria-current={current === null ? "page" : undefined}>
        All<span className="count">{all}</span>
      </Link>
      {statuses.map((s) => (
        <Link key={s} href={`${base}?status=${s}`} aria-current={current === s ? "page" : undefined}>
          {label(s)}
          <span className="count">{counts[s] ?? 0}</span>
        </Link>
      ))}
    </nav>
  );
}

/**
 * An empty list's message with one link: a secondary button (back to everything, the first page),
 * or with `primary` the way to get started.
 */
export function EmptyList({
  title,
  icon,
  href,
  linkLabel,
  primary = false,
  children,
}: {
  title: ReactNode;
  icon: ReactNode;
  href: string;
  linkLabel: ReactNode;
  primary?: boolean;
  children?: ReactNode;
}) {
  return (
    <EmptyState
      title={title}
      icon={icon}
      action={
        <Link className={primary ? "button" : "button secondary"} href={href}>
          {linkLabel}
        </Link>
      }
    >
      {children}
    </EmptyState>
  );
}
