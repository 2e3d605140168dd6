import { formatDateTime, paragraphs, relativeTime, videoEmbedUrl } from "@/components/donate/format";
import { HeartIcon } from "@/components/donate/icons";
import { ShareButtons } from "@/components/donate/share-buttons";
import { shareLabels } from "@/components/donate/share-labels";
import { withLang } from "@/lib/i18n/href";
import type { PageLanguage } from "../../site";
import type { PublicView } from "./data";
import page from "./page.module.css";
import styles from "./panels.module.css";

type Campaign = PublicView["campaign"];
type Money = (cents: number, short?: boolean) => string;

const strong = (chunks: React.ReactNode) => <strong>{chunks}</strong>;

export const hasStory = (c: Campaign) => Boolean(c.videoUrl) || (c.description ? paragraphs(c.description).length > 0 : false);

/** "About this campaign": the video, when there is one, and the story in its own paragraphs. */
export function StoryPanel({ c, lang: { t } }: { c: Campaign; lang: PageLanguage }) {
  const story = c.description ? paragraphs(c.description) : [];
  const embed = c.videoUrl ? videoEmbedUrl(c.videoUrl) : null;
  return (
    <section className={page.panel} aria-labelledby="about-heading">
      <h2 id="about-heading" className={page.panelHeading}>
        {t("story.heading", { type: c.type })}
      </h2>
      {c.videoUrl &&
        (embed ? (
          <div className={styles.video}>
            <iframe
              src={embed}
              title={t("story.videoTitle", { campaign: c.title })}
              loading="lazy"
              allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
            />
          </div>
        ) : (
          <p>
            <a href={c.videoUrl} target="_blank" rel="noopener noreferrer">
              {t.rich("story.watchVideo", { sr: (chunks) => <span className="sr-only">{chunks}</span> })}
            </a>
          </p>
        ))}
      <div className={styles.prose}>
        {story.map((lines, i) => (
          <p key={i}>
            {lines.map((line, j) => (
              <span key={j}>
                {j > 0 && <br />}
                {line}
              </span>
            ))}
          </p>
        ))}
      </div>
    </section>
  );
}

/** A peer-to-peer campaign's fundraiser pages, by amount raised. */
export function LeadersPanel({
  c,
  leaders,
  orgName,
  orgSlug,
  money,
  lang: { t, langParam },
}: {
  c: Campaign;
  leaders: NonNullable<PublicView["leaderboard"]>;
  orgName: string;
  orgSlug: string;
  money: Money;
  lang: PageLanguage;
}) {
  return (
    <section className={page.panel} aria-labelledby="leaders-heading">
      <h2 id="leaders-heading" className={page.panelHeading}>
        {t("leaders.heading")}
      </h2>
      {leaders.length === 0 ? (
        <div className={styles.empty}>
          <p className={styles.emptyTitle}>{t("leaders.emptyTitle")}</p>
          <p>{t("leaders.emptyBody", { campaign: c.title, org: orgName })}</p>
        </div>
      ) : (
        <ol className={styles.list}>
          {leaders.map((f, i) => (
            <li key={f.id} className={styles.row}>
              <span className={styles.avatar} aria-hidden="true">
                {i + 1}
              </span>
              <div className={styles.body}>
                <a href={withLang(`/o/${orgSlug}/donate/${f.slug}`, langParam)} className={styles.leaderLink}>
                  {f.title}
                </a>
                <p className={styles.leaderStats}>
                  {t.rich("leaders.stats", { raised: money(f.raisedAmountCents, true), count: f.donationCount, strong })}
                </p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The latest gifts (first names, or Anonymous), or an invitation to be the first. */
/** Donors listed at first; the rest of the roll opens under "See N more", so the page stays short. */
const DONORS_SHOWN = 8;

export function DonorsPanel(props: {
  c: Campaign;
  roll: NonNullable<PublicView["donorRoll"]>;
  open: boolean;
  money: Money;
  now: number;
  lang: PageLanguage;
  /** The organization's time zone, which the gifts' full times are shown in. */
  timeZone: string;
}) {
  const { c, roll, open, money, now, timeZone } = props;
  const { t, tag } = props.lang;
  const type = c.type === "EVENT" ? "EVENT" : "other";
  const donorRow = (d: (typeof roll)[number], i: number) => (
    <li key={`${d.createdAt}-${i}`} className={styles.row}>
      <span className={styles.avatar} aria-hidden="true">
        {d.name === "Anonymous" ? "?" : d.name.charAt(0).toUpperCase()}
      </span>
      <div className={styles.body}>
        <p className={styles.donorTop}>
          <span className={styles.donorName}>{d.name === "Anonymous" ? t("donors.anonymous") : d.name}</span>
          <span className={styles.donorAmount}>{money(d.amountCents)}</span>
        </p>
        {d.message && <p className={styles.donorMessage}>{d.message}</p>}
        <p className={styles.donorTime}>
          <time dateTime={d.createdAt} title={formatDateTime(d.createdAt, tag, timeZone)}>
            {relativeTime(d.createdAt, now, tag)}
          </time>
        </p>
      </div>
    </li>
  );
  return (
    <section className={page.panel} aria-labelledby="donors-heading">
      <h2 id="donors-heading" className={page.panelHeading}>
        {t("donors.heading", { type })}
      </h2>
      {roll.length === 0 ? (
        <div className={styles.empty}>
          <span className={styles.emptyIcon}>
            <HeartIcon size={22} />
          </span>
          <p className={styles.emptyTitle}>{t("donors.emptyTitle", { type })}</p>
          <p>
            {t("donors.emptyBody", { type, open: open ? "true" : "false" })}
            {open && (
              <>
                {" "}
                <a href="#donate">{t("donors.emptyAction", { type })}</a>
              </>
            )}
          </p>
        </div>
      ) : (
        <>
          <ul className={styles.list}>{roll.slice(0, DONORS_SHOWN).map(donorRow)}</ul>
          {roll.length > DONORS_SHOWN && (
            <details className={styles.more}>
              <summary>{t("donors.seeMore", { count: roll.length - DONORS_SHOWN })}</summary>
              <ul className={styles.list}>{roll.slice(DONORS_SHOWN).map((d, i) => donorRow(d, i + DONORS_SHOWN))}</ul>
            </details>
          )}
        </>
      )}
    </section>
  );
}

export function SharePanel({ c, orgName, lang: { t } }: { c: Campaign; orgName: string; lang: PageLanguage }) {
  return (
    <section className={page.panel} aria-labelledby="share-heading">
      <h2 id="share-heading" className={page.panelHeading}>
        {t("share.heading", { type: c.type })}
      </h2>
      <p className={page.panelIntro}>{t("share.intro", { org: orgName })}</p>
      <ShareButtons
        url={c.donateUrl}
        title={c.title}
        text={t("share.text", { campaign: c.title, org: orgName })}
        labels={shareLabels(t, c.donateUrl)}
      />
    </section>
  );
}

/** A list of fundraiser pages (a parent's teams, a team's members), by amount raised. */
export function PagesPanel({
  id,
  heading,
  entries,
  orgSlug,
  money,
  lang: { t, langParam },
}: {
  id: string;
  heading: string;
  entries: NonNullable<PublicView["teams"]>;
  orgSlug: string;
  money: Money;
  lang: PageLanguage;
}) {
  return (
    <section className={page.panel} aria-labelledby={id}>
      <h2 id={id} className={page.panelHeading}>
        {heading}
      </h2>
      <ol className={styles.list}>
        {entries.map((f, i) => (
          <li key={f.id} className={styles.row}>
            <span className={styles.avatar} aria-hidden="true">
              {i + 1}
            </span>
            <div className={styles.body}>
              <a href={withLang(`/o/${orgSlug}/donate/${f.slug}`, langParam)} className={styles.leaderLink}>
                {f.name}
              </a>
              <p className={styles.leaderStats}>
                {t.rich("leaders.stats", { raised: money(f.raisedAmountCents, true), count: f.donationCount, strong })}
              </p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
