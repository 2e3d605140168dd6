import { LoadingMain } from "@/components/donate/loading-main";
import { getTranslations } from "@/lib/i18n/request";
import skel from "../loading.module.css";
import styles from "../page.module.css";

export default async function Loading() {
  const t = await getTranslations("donate");
  return (
    <LoadingMain className={styles.thanks} status={t("site.loading")}>
      <div className={styles.thanksCard} aria-hidden="true">
        <div className={`${skel.skeleton} ${skel.skelTitle}`} style={{ margin: "0 auto 14px", width: "60%" }} />
        <div className={`${skel.skeleton} ${skel.skelLine}`} />
        <div className={`${skel.skeleton} ${skel.skelLine}`} style={{ width: "75%", margin: "0 auto" }} />
      </div>
    </LoadingMain>
  );
}
