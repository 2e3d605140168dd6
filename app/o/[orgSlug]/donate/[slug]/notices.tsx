import { formatDate, formatDateTime, matchRatioLabel } from "@/components/donate/format";
import { InfoIcon, SparkIcon } from "@/components/donate/icons";
import type { PageLanguage } from "../../site";
import type { Closure, PublicView } from "./data";
import styles from "./notices.module.css";

type Money = (cents: number, short?: boolean) => string;

const strong = (chunks: React.ReactNode) => <strong>{chunks}</strong>;

/** The matching offer: by whom, at what ratio, up to what; or that it has been used up. */
export function MatchingBanner({
  c,
  progress,
  money,
  lang,
}: {
  c: PublicView["campaign"];
  progress: PublicView["progress"];
  money: Money;
  lang: PageLanguage;
}) {
  const { t, tag } = lang;
  const by = c.matchingOrgName ?? t("matching.someone");
  const ratio = matchRatioLabel(c.matchingRatioPct, tag);
  const exhausted = c.matchingMaxCents !== null && progress !== null && progress.matchedAmountCents >= c.matchingMaxCents;
  const whole = c.matchingRatioPct >= 100;
  return (
    <div className={styles.matching}>
      <SparkIcon />
      <p>
        {exhausted ? (
          t.rich("matching.complete", { by, amount: money(progress!.matchedAmountCents, true), strong })
        ) : (
          <>
            {c.matchingMaxCents !== null
              ? t.rich(whole ? "matching.offerUpTo" : "matching.offerAtUpTo", { ratio, by, max: money(c.matchingMaxCents, true), strong })
              : t.rich(whole ? "matching.offer" : "matching.offerAt", { ratio, by, strong })}
            {progress && c.matchingMaxCents !== null && progress.matchedAmountCents > 0 && (
              <span className={styles.matchingSub}> {t("matching.soFar", { amount: money(progress.matchedAmountCents, true) })}</span>
            )}
          </>
        )}
      </p>
    </div>
  );
}

const CLOSED = {
  draft: "draft",
  paused: "paused",
  "not-started": "notStarted",
  ended: "ended",
  organization: "organization",
  unavailable: "unavailable",
  "sold-out": "soldOut",
  "no-amounts": "noAmounts",
} as const satisfies Record<NonNullable<Closure>, string>;

/** In place of the form when the page can't take a gift, with why and, when known, until when. */
export function ClosedNotice({
  closure,
  view,
  orgName,
  now,
  lang,
}: {
  closure: NonNullable<Closure>;
  view: PublicView;
  orgName: string;
  now: number;
  lang: PageLanguage;
}) {
  const { t, tag } = lang;
  const key = CLOSED[closure];
  const endDate = view.campaign.endDate;
  const startDate = view.campaign.startDate;
  return (
    <div className={styles.notice}>
      <InfoIcon />
      <div>
        <h2 id="donate-heading" className={styles.noticeTitle}>
          {t(`closed.${key}.title`)}
        </h2>
        <p>{t(`closed.${key}.body`, { org: orgName })}</p>
        {closure === "ended" && endDate && new Date(endDate).getTime() <= now && (
          <p>{t("closed.endedOn", { date: formatDate(endDate, tag, view.organization.timeZone) })}</p>
        )}
        {closure === "not-started" && startDate && (
          <p>
            {t.rich("closed.opensOn", {
              date: formatDateTime(startDate, tag, view.organization.timeZone),
              time: (chunks) => <time dateTime={startDate}>{chunks}</time>,
            })}
          </p>
        )}
        <p className={styles.noticeNote}>{t("closed.noPayment")}</p>
      </div>
    </div>
  );
}
