import type { ReactNode } from "react";
import styles from "./account.module.css";

/**
 * One of the account page's cards, named by its heading. With `empty` set, that line stands in
 * for the card's content (a list with nothing in it yet).
 */
export function AccountSection({ id, title, empty, children }: { id: string; title: string; empty?: string | false; children: ReactNode }) {
  return (
    <section className={styles.card} aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {empty ? <p>{empty}</p> : children}
    </section>
  );
}
