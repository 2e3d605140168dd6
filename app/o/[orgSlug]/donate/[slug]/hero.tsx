import { formatDateTime } from "@/components/donate/format";
import { CalendarIcon, PinIcon } from "@/components/donate/icons";
import type { PageLanguage } from "../../site";
import type { PublicView } from "./data";
import styles from "./hero.module.css";

type Parent = { title: string; href: string } | null;

/**
 * The page's first impression: the cover (16:9, its box reserved before the image loads), the
 * title, and what kind of campaign it is. The organization is named once, in the bar above.
 */
export function CampaignHero({
  c,
  parent,
  lang,
  timeZone,
}: {
  c: PublicView["campaign"];
  parent: Parent;
  lang: PageLanguage;
  /** The organization's time zone: an event's start is shown in it, naming it. */
  timeZone: string;
}) {
  const { t, tag } = lang;
  const kind =
    c.type === "PEER_TO_PEER" && c.parentCampaignId
      ? t("hero.fundraisingPage")
      : c.type === "DONATION"
        ? null
        : t("hero.kind", { type: c.type });
  return (
    <div className={styles.hero}>
      {c.coverImageUrl && (
        <div className={styles.cover}>
          {/* A plain img: covers come from any host, and the box reserves 16:9 before it loads. */}
          <img src={c.coverImageUrl} alt={t("hero.coverAlt", { campaign: c.title })} width={1200} height={675} fetchPriority="high" />
        </div>
      )}
      <div className={styles.titleBlock}>
        {kind && <p className={styles.kind}>{kind}</p>}
        <h1 className={styles.title}>{c.title}</h1>
        {parent && (
          <p className={styles.meta}>
            {t.rich("hero.fundraisingFor", { campaign: parent.title, link: (chunks) => <a href={parent.href}>{chunks}</a> })}
          </p>
        )}
        {c.type === "EVENT" && c.startDate && (
          <p className={`${styles.meta} ${styles.eventDate}`}>
            <CalendarIcon />
            <time dateTime={c.startDate}>{formatDateTime(c.startDate, tag, timeZone)}</time>
          </p>
        )}
        {c.type === "EVENT" && c.venue && (
          <p className={`${styles.meta} ${styles.eventDate}`}>
            <PinIcon />
            <span>{c.venue}</span>
          </p>
        )}
      </div>
    </div>
  );
}
