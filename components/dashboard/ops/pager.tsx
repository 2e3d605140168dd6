import Link from "next/link";
import styles from "./ops.module.css";

/** "Showing 26–50 of 143" with previous/next links (page-based lists). Nothing when one page holds all. */
export function Pager({
  page,
  limit,
  total,
  href,
  noun,
}: {
  page: number;
  limit: number;
  total: number;
  /** The URL of page `n` (1-based) with the list's other parameters kept. */
  href: (n: number) => string;
  noun: string;
}) {
  const first = total === 0 ? 0 : (page - 1) * limit + 1;
  const last = Math.min(total, page * limit);
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav className={styles.pager} aria-label={`Pages of ${noun}`}>
      <p className="small muted">
        {total === 0 ? `No ${noun} on this page` : `Showing ${first}–${last} of ${total.toLocaleString("en-US")} ${noun}`}
        {pages > 1 ? ` · page ${Math.min(page, pages)} of ${pages}` : ""}
      </p>
      {pages > 1 || page > 1 ? (
        <div className="button-row">
          {page > 1 ? (
            <Link className="button secondary small" href={href(Math.min(page - 1, pages))} rel="prev">
              ← Previous<span className="sr-only"> page</span>
            </Link>
          ) : null}
          {page < pages ? (
            <Link className="button secondary small" href={href(page + 1)} rel="next">
              Next<span className="sr-only"> page</span> →
            </Link>
          ) : null}
        </div>
      ) : null}
    </nav>
  );
}
