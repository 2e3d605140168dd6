import styles from "../page.module.css";

export default function Loading() {
  return (
    <main id="main" className={styles.thanks} aria-busy="true">
      <p className={styles.srOnly} role="status">
        Loading…
      </p>
      <div className={styles.thanksCard} aria-hidden="true">
        <div className={`${styles.skeleton} ${styles.skelTitle}`} style={{ margin: "0 auto 14px", width: "60%" }} />
        <div className={`${styles.skeleton} ${styles.skelLine}`} />
        <div className={`${styles.skeleton} ${styles.skelLine}`} style={{ width: "75%", margin: "0 auto" }} />
      </div>
    </main>
  );
}
