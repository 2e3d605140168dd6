import { LoadingMain } from "@/components/donate/loading-main";
import { getTranslations } from "@/lib/i18n/request";
import skel from "../loading.module.css";
import styles from "../page.module.css";

/** Shown while the donation loads: the payment card's outline, rather than the donate page's (the enclosing loading.tsx). */
export default async function Loading() {
  const t = await getTranslations("donate");
  const bone = (extra: string, style?: React.CSSProperties) => <div className={`${skel.skeleton} ${extra}`} style={style} />;
  return (
    <LoadingMain className={styles.thanks} status={t("site.loading")}>
      <div className={styles.card} aria-hidden="true">
        {bone(skel.skelLine, { width: "30%" })}
        {bone(skel.skelLine, { width: "45%", height: "1.4rem" })}
        {bone(skel.skelBlock)}
        {bone(skel.skelBlock, { height: "230px" })}
      </div>
    </LoadingMain>
  );
}
