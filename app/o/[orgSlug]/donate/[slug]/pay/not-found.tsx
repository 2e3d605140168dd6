import { headers } from "next/headers";
import { OrgHomeLink } from "@/components/donate/org-home-link";
import { CUSTOM_DOMAIN_HEADER } from "@/lib/hosted-urls/routes";
import { getTranslations } from "@/lib/i18n/request";
import styles from "../page.module.css";

/** No such donation for this campaign (a mistyped or cut link): said as such, not as an unknown campaign. */
export default async function PayPageNotFound() {
  const t = await getTranslations("donate");
  const customDomain = (await headers()).get(CUSTOM_DOMAIN_HEADER) === "1";
  return (
    <main id="main" className={styles.thanks}>
      <div className={styles.thanksCard}>
        <h1 className={styles.thanksTitle}>{t("thanks.notFoundTitle")}</h1>
        <p className={styles.thanksLead}>{t("payment.notFound")}</p>
        <p>
          <OrgHomeLink className={styles.back} customDomain={customDomain}>
            {t("notFound.home")}
          </OrgHomeLink>
        </p>
      </div>
    </main>
  );
}
