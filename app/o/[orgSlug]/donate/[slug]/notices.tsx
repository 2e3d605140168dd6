import { formatDate, formatDateTime, matchRatioLabel } from "@/components/donate/format";
import { InfoIcon, SparkIcon } from "@/components/donate/icons";
import type { Closure, PublicView } from "./data";
import styles from "./notices.module.css";

type Money = (cents: number, short?: boolean) => string;

/** The matching offer: by whom, at what ratio, up to what; or that it has been used up. */
export function MatchingBanner({ c, progress, money }: { c: PublicView["campaign"]; progress: PublicView["progress"]; money: Money }) {
  const by = c.matchingOrgName ?? "a generous supporter";
  const ratio = matchRatioLabel(c.matchingRatioPct);
  const exhausted = c.matchingMaxCents !== null && progress !== null && progress.matchedAmountCents >= c.matchingMaxCents;
  return (
    <div className={styles.matching}>
      <SparkIcon />
      <p>
        {exhausted ? (
          <>
            Matching by {by} is complete: <strong>{money(progress!.matchedAmountCents, true)}</strong> matched. Thank you!
          </>
        ) : (
          <>
            <strong>
              Every gift is matched {c.matchingRatioPct >= 100 ? ratio : `at ${ratio}`} by {by}
            </strong>
            {c.matchingMaxCents !== null && <> up to {money(c.matchingMaxCents, true)}</>}.
            {progress && c.matchingMaxCents !== null && progress.matchedAmountCents > 0 && (
              <span className={styles.matchingSub}> {money(progress.matchedAmountCents, true)} matched so far.</span>
            )}
          </>
        )}
      </p>
    </div>
  );
}

const CLOSED: Record<NonNullable<Closure>, { title: string; body: (org: string) => string }> = {
  paused: { title: "Donations are paused", body: (org) => `${org} has paused this campaign for now. Please check back soon.` },
  "not-started": {
    title: "Giving hasn't opened yet",
    body: (org) => `${org} is getting this campaign ready. Please come back when it opens.`,
  },
  ended: { title: "This campaign has ended", body: (org) => `Thank you to everyone who gave. ${org} is no longer accepting gifts here.` },
  organization: {
    title: "Not accepting donations yet",
    body: (org) => `${org} is still setting up online giving. Please check back soon.`,
  },
  unavailable: { title: "Online giving is unavailable", body: () => "Payments can't be taken right now. Please try again later." },
  "sold-out": { title: "Sold out", body: () => "Every ticket has been claimed. Thank you for your interest!" },
  "no-amounts": { title: "Not accepting gifts online", body: (org) => `Please contact ${org} to give to this campaign.` },
};

/** In place of the form when the page can't take a gift, with why and, when known, until when. */
export function ClosedNotice({
  closure,
  view,
  orgName,
  now,
}: {
  closure: NonNullable<Closure>;
  view: PublicView;
  orgName: string;
  now: number;
}) {
  const text = CLOSED[closure];
  const endDate = view.campaign.endDate;
  return (
    <div className={styles.notice}>
      <InfoIcon />
      <div>
        <h2 id="donate-heading" className={styles.noticeTitle}>
          {text.title}
        </h2>
        <p>{text.body(orgName)}</p>
        {closure === "ended" && endDate && new Date(endDate).getTime() <= now && <p>Ended {formatDate(endDate)}.</p>}
        {closure === "not-started" && view.campaign.startDate && (
          <p>
            Giving opens <time dateTime={view.campaign.startDate}>{formatDateTime(view.campaign.startDate)}</time>.
          </p>
        )}
        <p className={styles.noticeNote}>No payment can be made on this page.</p>
      </div>
    </div>
  );
}
