import { getTranslations } from "@/lib/i18n/request";
import styles from "./test-mode-banner.module.css";

/**
 * Shown on every page in sandbox payments mode (root layout), in the page's language: nothing
 * real is charged, so nobody should mistake the install for a live one. A labelled landmark, so
 * screen readers can find it.
 */
export async function TestModeBanner() {
  const t = await getTranslations("common");
  return (
    <aside className={styles.banner} aria-label={t("testMode.label")}>
      <p>
        <strong>{t("testMode.title")}</strong> — {t("testMode.body")}
      </p>
    </aside>
  );
}
