import type { translator } from "@/lib/i18n/translate";
import styles from "./test-mode-banner.module.css";

/** The banner in the language of `t` (the donate page renders it outside the App Router). */
export function TestModeBannerView({ t }: { t: ReturnType<typeof translator<"common">> }) {
  return (
    <aside className={styles.banner} aria-label={t("testMode.label")}>
      <p>
        <strong>{t("testMode.title")}</strong> — {t("testMode.body")}
      </p>
    </aside>
  );
}
