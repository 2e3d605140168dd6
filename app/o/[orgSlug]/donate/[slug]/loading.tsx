import { LoadingMain } from "@/components/donate/loading-main";
import { getTranslations } from "@/lib/i18n/request";
import hero from "./hero.module.css";
import sk from "./loading.module.css";
import styles from "./page.module.css";

/** Shown while the page's data loads: the page's own boxes, so nothing shifts when it arrives. */
export default async function Loading() {
  const t = await getTranslations("donate");
  const bone = (extra: string, style?: React.CSSProperties) => <div className={`${sk.skeleton} ${extra}`} style={style} />;
  return (
    <LoadingMain className={styles.main} status={t("site.loadingPage")}>
      <div className={styles.header} aria-hidden="true">
        <div className={hero.hero}>
          <div className={`${hero.cover} ${sk.skeleton}`} />
          <div className={hero.titleBlock}>{bone(sk.skelTitle)}</div>
        </div>
      </div>
      <div className={styles.donate} aria-hidden="true">
        <div className={styles.card}>
          {bone(sk.skelLine, { width: "55%", height: "1.6rem" })}
          {bone(sk.skelLine, { height: "12px", borderRadius: "999px" })}
          {bone(sk.skelLine, { width: "45%", height: "1.4rem" })}
          <div className={sk.skelGrid}>
            {bone(sk.skelBlock)}
            {bone(sk.skelBlock)}
            {bone(sk.skelBlock)}
          </div>
          {bone(sk.skelBlock)}
          {bone(sk.skelBlock)}
          {bone(sk.skelBlock, { height: "52px" })}
        </div>
      </div>
      <div className={styles.story} aria-hidden="true">
        <div className={styles.panel}>
          {bone(sk.skelLine, { width: "35%", height: "1.3rem" })}
          {bone(sk.skelLine)}
          {bone(sk.skelLine)}
          {bone(sk.skelLine, { width: "70%" })}
        </div>
      </div>
    </LoadingMain>
  );
}
