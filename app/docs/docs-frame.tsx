import Link from "next/link";
import type { ReactNode } from "react";
import styles from "./docs.module.css";

/**
 * The frame of a docs page: a skip link to the content (`main#<mainId>`), the sidebar navigation
 * (`navLabel`, the brand, then `nav`: its list items) and the content.
 */
export function DocsFrame({
  mainId,
  skipLabel,
  navLabel,
  nav,
  mainClassName,
  children,
}: {
  mainId: string;
  skipLabel: string;
  navLabel: string;
  nav: ReactNode;
  mainClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.layout}>
      <a className={styles.skip} href={`#${mainId}`}>
        {skipLabel}
      </a>
      <nav className={styles.sidebar} aria-label={navLabel}>
        <p className={styles.brand}>
          <Link href="/">Goodfund</Link> API
        </p>
        <ul>{nav}</ul>
      </nav>
      <main id={mainId} className={mainClassName ? `${styles.main} ${mainClassName}` : styles.main}>
        {children}
      </main>
    </div>
  );
}
