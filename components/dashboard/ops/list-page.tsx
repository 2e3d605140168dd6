import Link from "next/link";
import type { ReactNode } from "react";
import { Notice } from "@/components/ui/notice";
import styles from "./ops.module.css";

/** The foot of a list's filter form: a hint, "Clear filters" when some apply, and the submit button. */
export function FilterActions({
  hint,
  clearHref,
  clearLabel = "Clear filters",
  submitLabel = "Apply filters",
}: {
  hint: ReactNode;
  /** Where clearing leads; no link when nothing is filtered. */
  clearHref: string | null;
  clearLabel?: string;
  submitLabel?: string;
}) {
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
