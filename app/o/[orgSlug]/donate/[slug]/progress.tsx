import { formatPercent } from "@/components/donate/format";
import type { PageLanguage } from "../../site";
import type { PublicView } from "./data";
import styles from "./hero.module.css";

type Money = (cents: number, short?: boolean) => string;

const strong = (chunks: React.ReactNode) => <strong>{chunks}</strong>;

/** The thermometer: raised, the goal and how far along, the number of gifts. Fixed height. */
export function Progress({ progress, money, lang }: { progress: NonNullable<PublicView["progress"]>; money: Money; lang: PageLanguage }) {
  const { t, tag } = lang;
  const { raisedAmountCents, goalAmountCents, donationCount, percent } = progress;
  const count = t("progress.donations", { count: donationCount });
  if (!goalAmountCents || percent === null) {
    return (
      <div className={styles.progress}>
        <p className={styles.raised}>{t.rich("progress.raised", { raised: money(raisedAmountCents, true), strong })}</p>
        <p className={styles.progressStats}>{count}</p>
      </div>
    );
  }
  const shown = Math.min(100, Math.max(0, percent));
  const pctLabel = formatPercent(Math.floor(percent), tag);
  const goal = money(goalAmountCents, true);
  return (
    <div className={styles.progress}>
      <p className={styles.raised}>
        {t.rich("progress.raisedOfGoal", {
          raised: money(raisedAmountCents, true),
          goal,
          strong,
          of: (chunks) => <span className={styles.raisedOf}>{chunks}</span>,
        })}
      </p>
      <div
        className={styles.bar}
        role="progressbar"
        aria-label={t("progress.label")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(shown)}
        aria-valuetext={t("progress.value", { percent: pctLabel, goal })}
      >
        <div className={styles.barFill} style={{ width: `${shown}%` }} />
      </div>
      <p className={styles.progressStats}>
        <span>{t.rich("progress.funded", { percent: pctLabel, strong })}</span>
        <span>{count}</span>
      </p>
    </div>
  );
}

/**
 * Social proof in one line: the first letters of the latest donors (when the roll is public)
 * and how many people have given. Nothing at all before the first gift.
 */
export function Supporters({ count, roll, lang }: { count: number; roll: PublicView["donorRoll"]; lang: PageLanguage }) {
  if (count <= 0) return null;
  // No more faces than people: the roll lists gifts, and one person may give several.
  const faces = (roll ?? []).slice(0, Math.min(4, count));
  return (
    <p className={styles.supporters}>
      {faces.length > 0 && (
        <span className={styles.faces} aria-hidden="true">
          {faces.map((d, i) => (
            <span key={`${d.createdAt}-${i}`} className={styles.face}>
              {d.name === "Anonymous" ? "♥" : d.name.charAt(0).toUpperCase()}
            </span>
          ))}
        </span>
      )}
      <span>{lang.t.rich("progress.supporters", { count, strong })}</span>
    </p>
  );
}
