import styles from "./page.module.css";

/** Shown while the page's data loads: the page's own boxes, so nothing shifts when it arrives. */
export default function Loading() {
  const sk = (extra: string, style?: React.CSSProperties) => <div className={`${styles.skeleton} ${extra}`} style={style} />;
  return (
    <main id="main" className={styles.main} aria-busy="true">
      <p className={styles.srOnly} role="status">
        Loading the donation page…
      </p>
      <div className={styles.header} aria-hidden="true">
        <div className={styles.titleBlock}>
          {sk(styles.skelLine, { width: "40%" })}
          {sk(styles.skelTitle)}
        </div>
      </div>
      <div className={styles.donate} aria-hidden="true">
        <div className={styles.card}>
          {sk(styles.skelLine, { width: "55%", height: "1.6rem" })}
          {sk(styles.skelLine, { height: "12px", borderRadius: "999px" })}
          {sk(styles.skelLine, { width: "45%", height: "1.4rem" })}
          <div className={styles.skelGrid}>
            {sk(styles.skelBlock)}
            {sk(styles.skelBlock)}
            {sk(styles.skelBlock)}
          </div>
          {sk(styles.skelBlock)}
          {sk(styles.skelBlock)}
          {sk(styles.skelBlock, { height: "52px" })}
        </div>
      </div>
      <div className={styles.story} aria-hidden="true">
        <div className={styles.panel}>
          {sk(styles.skelLine, { width: "35%", height: "1.3rem" })}
          {sk(styles.skelLine)}
          {sk(styles.skelLine)}
          {sk(styles.skelLine, { width: "70%" })}
        </div>
      </div>
    </main>
  );
}
