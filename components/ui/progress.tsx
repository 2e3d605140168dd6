/**
 * Raised against goal: a bar with the numbers written out beside it (the bar alone says nothing
 * to a screen reader, so it is a labelled progressbar and the text repeats the figures).
 */
export function Progress({
  raisedLabel,
  goalLabel,
  percent,
  label,
}: {
  raisedLabel: string;
  goalLabel: string | null;
  /** 0–100+ when there is a goal, else null (no bar). */
  percent: number | null;
  label: string;
}) {
  const shown = percent === null ? null : Math.max(0, Math.min(100, percent));
  return (
    <div className="progress">
      {shown !== null ? (
        <div className="bar" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(shown)}>
          <div className="fill" style={{ width: `${shown}%` }} />
        </div>
      ) : null}
      <div className="meta">
        <span>
          <strong>{raisedLabel}</strong>
          {goalLabel ? ` of ${goalLabel}` : " raised"}
        </span>
        {percent !== null ? <span>{Math.round(percent)}%</span> : null}
      </div>
    </div>
  );
}
