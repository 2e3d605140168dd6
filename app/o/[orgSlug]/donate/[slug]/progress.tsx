import { formatCount } from "@/components/donate/format";
import type { PublicView } from "./data";
import styles from "./hero.module.css";

type Money = (cents: number, short?: boolean) => string;

/** The thermometer: raised, the goal and how far along, the number of gifts. Fixed height. */
export function Progress({ progress, money }: { progress: NonNullable<PublicView["progress"]>; money: Money }) {
  const { raisedAmountCents, goalAmountCents, donationCount, percent } = progress;
  const count = (
    <>
      {formatCount(donationCount)} {donationCount === 1 ? "donation" : "donations"}
    </>
  );
  if (!goalAmountCents || percent === null) {
    return (
      <div className={styles.progress}>
        <p className={styles.raised}>
          <strong>{money(raisedAmountCents, true)}</strong> raised
        </p>
        <p className={styles.progressStats}>{count}</p>
      </div>
    );
  }
  const shown = Math.min(100, Math.max(0, percent));
  const pctLabel = `${formatCount(Math.floor(percent))}%`;
  return (
    <div className={styles.progress}>
      <p className={styles.raised}>
        <strong>{money(raisedAmountCents, true)}</strong>{" "}
        <span className={styles.raisedOf}>raised of {money(goalAmountCents, true)} goal</span>
      </p>
      <div
        className={styles.bar}
        role="progressbar"
        aria-label="Progress towards the goal"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(shown)}
        aria-valuetext={`${pctLabel} of the ${money(goalAmountCents, true)} goal`}
      >
        <div className={styles.barFill} style={{ width: `${shown}%` }} />
      </div>
      <p className={styles.progressStats}>
        <span>
          <strong>{pctLabel}</strong> funded
        </span>
        <span>{count}</span>
      </p>
    </div>
  );
}

/**
 * Social proof in one line: the first letters of the latest donors (when the roll is public)
 * and how many people have given. Nothing at all before the first gift.
 */
export function Supporters({ count, roll }: { count: number; roll: PublicView["donorRoll"] }) {
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
      <span>
        <strong>
          {formatCount(count)} {count === 1 ? "person has" : "people have"} given
        </strong>
        . Join them!
      </span>
    </p>
  );
}
