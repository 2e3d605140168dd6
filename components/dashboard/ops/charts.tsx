import { TableWrap, TableHead, num } from "@/components/ui/table";
import { formatMoney } from "@/lib/money";
import { bucketLabel, type Interval } from "./report-window";
import styles from "./ops.module.css";

/** The scale's top: the smallest 1, 2, 2.5 or 5 × 10ⁿ at or above `max` (display only, never a figure of the report). */
function niceCeil(max: number): number {
  if (max <= 0) return 100;
  const pow = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * pow >= max) return step * pow;
  return 10 * pow;
}

type Bucket = { start: string; date: string; raisedCents: number; count: number };

const gifts = (n: number) => `${n.toLocaleString("en-US")} donation${n === 1 ? "" : "s"}`;

/**
 * "Raised over time": one SVG bar per bucket, each with a <title> tooltip. The picture is one
 * image to assistive technology; the same numbers are in the "Show as table" table below it.
 * Bars stretch to the width (the SVG keeps no aspect ratio); labels are HTML, so they stay
 * readable at any width.
 */
export function TimeseriesChart({
  id,
  buckets,
  interval,
  currency,
  total,
}: {
  id: string;
  buckets: Bucket[];
  interval: Interval;
  currency: string;
  /** The summary's raised and count for the whole window: the table's last row. */
  total: { raisedCents: number; count: number };
}) {
  const money = (c: number) => formatMoney(c, currency, { short: true });
  const max = buckets.reduce((m, b) => Math.max(m, b.raisedCents), 0);
  if (buckets.length === 0 || max === 0) {
    return (
      <div className={styles.chartEmpty}>
        <p style={{ margin: 0 }}>
          No succeeded donations in this period yet.
          <br />
          <span className="small">Pick a longer period, or share a campaign to get the first gift.</span>
        </p>
      </div>
    );
  }
  const top = niceCeil(max);
  const slot = 10;
  const n = buckets.length;
  const width = n * slot;
  // One slot per bucket across the whole width; with few buckets a bar stays slim (6 % of the
  // width at most) instead of stretching into a slab.
  const barWidth = Math.min(slot - 3, width * 0.06);
  const peak = buckets.find((b) => b.raisedCents === max)!;
  const labelled = n <= 6 ? buckets : [buckets[0], buckets[Math.floor((n - 1) / 2)], buckets[n - 1]];

  return (
    <figure className={styles.chart}>
      <div className={styles.plot}>
        <div className={styles.yAxis} aria-hidden="true">
          <span>{money(top)}</span>
          <span>{money(Math.round(top / 2))}</span>
          <span>{money(0)}</span>
        </div>
        <svg
          className={styles.bars}
          viewBox={`0 0 ${width} 100`}
          preserveAspectRatio="none"
          role="img"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-desc`}
        >
          <title id={`${id}-title`}>{`Raised per ${interval}, ${n} ${interval}${n === 1 ? "" : "s"}`}</title>
          <desc
            id={`${id}-desc`}
          >{`Highest: ${money(max)} in ${bucketLabel(peak.date, interval)}. Every value is in the table under “Show as table”.`}</desc>
          {[0, 50, 100].map((y) => (
            <line key={y} x1={0} x2={width} y1={y} y2={y} vectorEffect="non-scaling-stroke" />
          ))}
          {buckets.map((b, i) => {
            const h = b.raisedCents === 0 ? 0 : Math.max(1, (b.raisedCents / top) * 100);
            return (
              <rect key={b.start} className={styles.bar} x={i * slot + (slot - barWidth) / 2} width={barWidth} y={100 - h} height={h}>
                <title>{`${bucketLabel(b.date, interval)}: ${money(b.raisedCents)} from ${gifts(b.count)}`}</title>
              </rect>
            );
          })}
        </svg>
        <span aria-hidden="true" />
        <div className={styles.xAxis} data-each={n <= 6 ? "" : undefined} aria-hidden="true">
          {labelled.map((b) => (
            <span key={b.start}>{bucketLabel(b.date, interval, true)}</span>
          ))}
        </div>
      </div>
      <details className={styles.tableToggle}>
        <summary>Show as table</summary>
        <TableWrap label="Raised over time, as a table">
          <caption className="sr-only">Raised per {interval}, oldest first</caption>
          <TableHead columns={[interval === "day" ? "Day" : interval === "week" ? "Week" : "Month", num("Raised"), num("Donations")]} />
          <tbody>
            {buckets.map((b) => (
              <tr key={b.start}>
                <th scope="row" className={styles.rowHead}>
                  {bucketLabel(b.date, interval)}
                </th>
                <td className="num">{money(b.raisedCents)}</td>
                <td className="num">{b.count.toLocaleString("en-US")}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className={styles.rowHead}>
                Whole period
              </th>
              <td className="num">
                <strong>{money(total.raisedCents)}</strong>
              </td>
              <td className="num">
                <strong>{total.count.toLocaleString("en-US")}</strong>
              </td>
            </tr>
          </tfoot>
        </TableWrap>
      </details>
    </figure>
  );
}

type CampaignRow = { campaignId: string; title: string; raisedCents: number; count: number; parentCampaignId: string | null };

/**
 * "By campaign" as horizontal bars: the campaigns that raised something in the window, highest
 * first. Each row says its figures in words; the bar itself is decoration.
 */
export function CampaignBars({
  rows,
  currency,
  titles,
  limit = 10,
}: {
  rows: CampaignRow[];
  currency: string;
  titles: Map<string, string>;
  limit?: number;
}) {
  const shown = rows.filter((r) => r.raisedCents > 0).slice(0, limit);
  if (shown.length === 0) {
    return (
      <div className={styles.chartEmpty} style={{ height: 120 }}>
        <p style={{ margin: 0 }}>No campaign raised money in this period.</p>
      </div>
    );
  }
  const max = Math.max(...shown.map((r) => r.raisedCents));
  return (
    <ul className={styles.hbars} aria-label="Raised by campaign, highest first">
      {shown.map((r) => (
        <li key={r.campaignId} className={styles.hbar}>
          <span className={styles.hbarLabel} title={r.title}>
            {r.title}
            {r.parentCampaignId ? <span className="muted small"> · page of {titles.get(r.parentCampaignId) ?? "a campaign"}</span> : null}
          </span>
          <span className={styles.hbarValue}>
            {formatMoney(r.raisedCents, currency, { short: true })} <span className="muted">· {gifts(r.count)}</span>
          </span>
          <svg viewBox="0 0 100 12" preserveAspectRatio="none" aria-hidden="true" focusable="false">
            <rect className={styles.track} x={0} y={0} width={100} height={12} />
            <rect className={styles.fill} x={0} y={0} width={Math.max(0.5, (r.raisedCents / max) * 100)} height={12} />
          </svg>
        </li>
      ))}
    </ul>
  );
}
