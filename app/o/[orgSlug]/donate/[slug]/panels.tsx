import { formatCount, formatDateTime, paragraphs, relativeTime, videoEmbedUrl } from "@/components/donate/format";
import { HeartIcon } from "@/components/donate/icons";
import { ShareButtons } from "@/components/donate/share-buttons";
import type { PublicView } from "./data";
import page from "./page.module.css";
import styles from "./panels.module.css";

type Campaign = PublicView["campaign"];
type Money = (cents: number, short?: boolean) => string;

const noun = (c: Campaign) => (c.type === "EVENT" ? "event" : "campaign");

export const hasStory = (c: Campaign) => Boolean(c.videoUrl) || (c.description ? paragraphs(c.description).length > 0 : false);

/** "About this campaign": the video, when there is one, and the story in its own paragraphs. */
export function StoryPanel({ c }: { c: Campaign }) {
  const story = c.description ? paragraphs(c.description) : [];
  const embed = c.videoUrl ? videoEmbedUrl(c.videoUrl) : null;
  return (
    <section className={page.panel} aria-labelledby="about-heading">
      <h2 id="about-heading" className={page.panelHeading}>
        About this {noun(c)}
      </h2>
      {c.videoUrl &&
        (embed ? (
          <div className={styles.video}>
            <iframe
              src={embed}
              title={`Video: ${c.title}`}
              loading="lazy"
              allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
              allowFullScreen
              referrerPolicy="strict-origin-when-cross-origin"
            />
          </div>
        ) : (
          <p>
            <a href={c.videoUrl} target="_blank" rel="noopener noreferrer">
              Watch the campaign video<span className={page.srOnly}> (opens in a new tab)</span>
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
}: {
  c: Campaign;
  leaders: NonNullable<PublicView["leaderboard"]>;
  orgName: string;
  orgSlug: string;
  money: Money;
}) {
  return (
    <section className={page.panel} aria-labelledby="leaders-heading">
      <h2 id="leaders-heading" className={page.panelHeading}>
        Top fundraisers
      </h2>
      {leaders.length === 0 ? (
        <div className={styles.empty}>
          <p className={styles.emptyTitle}>No fundraiser pages yet</p>
          <p>
            Runners and supporters can start their own page for {c.title}. Ask {orgName} how to start yours.
          </p>
        </div>
      ) : (
        <ol className={styles.list}>
          {leaders.map((f, i) => (
            <li key={f.id} className={styles.row}>
              <span className={styles.avatar} aria-hidden="true">
                {i + 1}
              </span>
              <div className={styles.body}>
                <a href={`/o/${orgSlug}/donate/${f.slug}`} className={styles.leaderLink}>
                  {f.title}
                </a>
                <p className={styles.leaderStats}>
                  <strong>{money(f.raisedAmountCents, true)}</strong> raised · {formatCount(f.donationCount)}{" "}
                  {f.donationCount === 1 ? "donation" : "donations"}
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
export function DonorsPanel(props: { c: Campaign; roll: NonNullable<PublicView["donorRoll"]>; open: boolean; money: Money; now: number }) {
  const { c, roll, open, money, now } = props;
  const isEvent = c.type === "EVENT";
  return (
    <section className={page.panel} aria-labelledby="donors-heading">
      <h2 id="donors-heading" className={page.panelHeading}>
        {isEvent ? "Who's coming" : "Recent donors"}
      </h2>
      {roll.length === 0 ? (
        <div className={styles.empty}>
          <span className={styles.emptyIcon}>
            <HeartIcon size={22} />
          </span>
          <p className={styles.emptyTitle}>{isEvent ? "Be the first to get a ticket" : "Be the first to give"}</p>
          <p>
            {isEvent ? "Every guest list starts with one name." : "Every campaign starts with one gift."} Yours will appear here
            {open ? " and encourage others to follow" : ""}.
            {open && (
              <>
                {" "}
                <a href="#donate">{isEvent ? "Get tickets" : "Give now"}</a>
              </>
            )}
          </p>
        </div>
      ) : (
        <ul className={styles.list}>
          {roll.map((d, i) => (
            <li key={`${d.createdAt}-${i}`} className={styles.row}>
              <span className={styles.avatar} aria-hidden="true">
                {d.name === "Anonymous" ? "?" : d.name.charAt(0).toUpperCase()}
              </span>
              <div className={styles.body}>
                <p className={styles.donorTop}>
                  <span className={styles.donorName}>{d.name}</span>
                  <span className={styles.donorAmount}>{money(d.amountCents)}</span>
                </p>
                {d.message && <p className={styles.donorMessage}>{d.message}</p>}
                <p className={styles.donorTime}>
                  <time dateTime={d.createdAt} title={formatDateTime(d.createdAt)}>
                    {relativeTime(d.createdAt, now)}
                  </time>
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function SharePanel({ c, orgName }: { c: Campaign; orgName: string }) {
  return (
    <section className={page.panel} aria-labelledby="share-heading">
      <h2 id="share-heading" className={page.panelHeading}>
        Share this {noun(c)}
      </h2>
      <p className={page.panelIntro}>Sharing is one of the best ways to help {orgName} reach more people.</p>
      <ShareButtons url={c.donateUrl} title={c.title} text={`Support ${c.title} with ${orgName}`} />
    </section>
  );
}
