import Link from "next/link";
import { getTranslations } from "@/lib/i18n/request";
import styles from "./[slug]/page.module.css";

/** Unknown organization, unknown campaign, or a campaign that is still a draft. */
export default async function DonatePageNotFound() {
  const t = await getTranslations("donate");
  return (
    <div className={styles.shell}>
      <main id="main" className={styles.thanks}>
        <div className={styles.thanksCard}>
          <h1 className={styles.thanksTitle}>{t("notFound.title")}</h1>
          <p className={styles.thanksLead}>{t("notFound.body")}</p>
          <p>
            <Link className={styles.back} href="/">
              {t("notFound.home")}
            </Link>
          </p>
        </div>
      </main>
    </div>
  );
}
