import { headers } from "next/headers";
import { OrgHomeLink } from "@/components/donate/org-home-link";
import { CUSTOM_DOMAIN_HEADER } from "@/lib/hosted-urls/routes";
import { getTranslations } from "@/lib/i18n/request";
import { NotFoundCard } from "../../not-found-card";

/** No such donation for this campaign (a mistyped or cut link): said as such, not as an unknown campaign. */
export default async function PayPageNotFound() {
  const t = await getTranslations("donate");
  const customDomain = (await headers()).get(CUSTOM_DOMAIN_HEADER) === "1";
  return (
    <NotFoundCard
      title={t("thanks.notFoundTitle")}
      body={t("payment.notFound")}
      home={(className) => (
        <OrgHomeLink className={className} customDomain={customDomain}>
          {t("notFound.home")}
        </OrgHomeLink>
      )}
    />
  );
}
