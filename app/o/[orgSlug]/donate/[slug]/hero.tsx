import { formatDateTime } from "@/components/donate/format";
import { CalendarIcon } from "@/components/donate/icons";
import type { PublicView } from "./data";
import styles from "./hero.module.css";

type Parent = { title: string; href: string } | null;

const KIND: Partial<Record<PublicView["campaign"]["type"], string>> = {
  EVENT: "Event",
  MEMBERSHIP: "Membership",
  PEER_TO_PEER: "Peer-to-peer",
};

/**
 * The page's first impression: the cover (16:9, its box reserved before the image loads), the
 * title, and what kind of campaign it is. The organization is named once, in the bar above.
 */
export function CampaignHero({ c, parent }: { c: PublicView["campaign"]; parent: Parent }) {
  const kind = c.type === "PEER_TO_PEER" && c.parentCampaignId ? "Fundraising page" : KIND[c.type];
  return (
    <div className={styles.hero}>
      {c.coverImageUrl && (
        <div className={styles.cover}>
          {/* A plain img: covers come from any host, and the box reserves 16:9 before it loads. */}
          <img src={c.coverImageUrl} alt={`Cover image: ${c.title}`} width={1200} height={675} fetchPriority="high" />
        </div>
      )}
      <div className={styles.titleBlock}>
        {kind && <p className={styles.kind}>{kind}</p>}
        <h1 className={styles.title}>{c.title}</h1>
        {parent && (
          <p className={styles.meta}>
            Fundraising for <a href={parent.href}>{parent.title}</a>
          </p>
        )}
        {c.type === "EVENT" && c.startDate && (
          <p className={`${styles.meta} ${styles.eventDate}`}>
            <CalendarIcon />
            <time dateTime={c.startDate}>{formatDateTime(c.startDate)}</time>
          </p>
        )}
      </div>
    </div>
  );
}
