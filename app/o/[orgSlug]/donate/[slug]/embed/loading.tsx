import styles from "./embed.module.css";

/** Shown while the embeddable form loads: a quiet box of the form's size, not the full page's skeleton. */
export default function EmbedLoading() {
  return (
    <main id="main" className={styles.main} aria-busy="true">
      <div className={`${styles.card} ${styles.loading}`}>
        <p role="status">Loading the donation form…</p>
      </div>
    </main>
  );
}
