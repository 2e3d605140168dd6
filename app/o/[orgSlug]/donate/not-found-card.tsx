import type { ReactNode } from "react";
import styles from "./[slug]/page.module.css";

/** A donate page's "not found": what is missing, and the way on (`home`, a link given the card's class). */
export function NotFoundCard({ title, body, home }: { title: string; body: string; home: (className: string) => ReactNode }) {
  return (
    <main id="main" className={styles.thanks}>
      <div className={styles.thanksCard}>
        <h1 className={styles.thanksTitle}>{title}</h1>
        <p className={styles.thanksLead}>{body}</p>
        <p>{home(styles.back)}</p>
      </div>
    </main>
  );
}
