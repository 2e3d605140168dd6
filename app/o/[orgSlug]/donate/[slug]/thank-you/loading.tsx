import { getTranslations } from "@/lib/i18n/request";
import styles from "../page.module.css";

export default async function Loading() {
  const t = await getTranslations("donate");
  return (
    <main id="main" className={styles.thanks} aria-busy="true">
      <p className="sr-only" role="status">
        {t("site.loading")}
      </p>
      <div className={styles.thanksCard} aria-hidden="true">
        <div className={`${styles.skeleton} ${styles.skelTitle}`} style={{ margin: "0 auto 14px", width: "60%" }} />
        <div className={`${styles.skeleton} ${styles.skelLine}`} />
        <div className={`${styles.skeleton} ${styles.skelLine}`} style={{ width: "75%", margin: "0 auto" }} />
      </div>
    </main>
  );
}
