import { headers } from "next/headers";
import { OrgHomeLink } from "@/components/donate/org-home-link";
import { CUSTOM_DOMAIN_HEADER } from "@/lib/hosted-urls/routes";
import { getTranslations } from "@/lib/i18n/request";
import { NotFoundCard } from "./not-found-card";
import styles from "./[slug]/page.module.css";

/** Unknown organization, unknown campaign, or a campaign that is still a draft: on to the organization's page. */
export default async function DonatePageNotFound() {
  const t = await getTranslations("donate");
  const customDomain = (await headers()).get(CUSTOM_DOMAIN_HEADER) === "1";
  return (
    <div className={styles.shell}>
      <NotFoundCard
        title={t("notFound.title")}
        body={t("notFound.body")}
        home={(className) => (
          <OrgHomeLink className={className} customDomain={customDomain}>
            {t("notFound.home")}
          </OrgHomeLink>
        )}
      />
    </div>
  );
}
