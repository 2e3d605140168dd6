import { getTranslations } from "@/lib/i18n/request";
import styles from "./embed.module.css";

/** Shown while the embeddable form loads: a quiet box of the form's size, not the full page's skeleton. */
export default async function EmbedLoading() {
  const t = await getTranslations("donate");
  return (
    <main id="main" className={styles.main} aria-busy="true">
      <div className={`${styles.card} ${styles.loading}`}>
        <p role="status">{t("site.loadingForm")}</p>
      </div>
    </main>
  );
}
