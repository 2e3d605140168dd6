import type { Metadata } from "next";
import Link from "next/link";
import { TYPE_LABEL } from "@/components/dashboard/campaign-helpers";
import { formatMoney } from "@/lib/money";
import { CampaignBars, TimeseriesChart } from "@/components/dashboard/ops/charts";
import { FilterForm } from "@/components/dashboard/ops/list-page";
import { INTERVALS, PRESETS, resolveWindow } from "@/components/dashboard/ops/report-window";
import { StatusBadge } from "@/components/ui/badge";
import { Card, PageHeader, Stat } from "@/components/ui/card";
import { SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { getDb } from "@/db";
import { getCampaignReport, getReportSummary, getReportTimeseries } from "@/db/queries/reports";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { AppError } from "@/lib/errors";
import { reportTimeseriesQuery, reportWindowQuery, windowOf, type TimeseriesBucket } from "@/lib/schemas/reports";
import { CSV_BOM, csvLine, minorUnitsToDecimal } from "@/lib/services/exports/csv";
import { OpsTable } from "@/components/dashboard/ops/ops-table";
import { TableHead, num } from "@/components/ui/table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Reports" };

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const csvHref = (lines: string[]) => `data:text/csv;charset=utf-8,${encodeURIComponent(CSV_BOM + lines.join(""))}`;
const count = (n: number) => n.toLocaleString("en-US");

// GET /dashboard/:orgSlug/reports: totals, raised over time and by campaign for a window (days of
// the organization's time zone), each number exactly as the report queries (and so the API) give it; CSV downloads.
export default async function ReportsPage({ params, searchParams }: Props) {
  const { orgSlug } = await params;
  const sp = await searchParams;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/reports`);
  // Donation and donor files are bulk copies of donor data: offered to admins only.
  const canExportRecords = roleSatisfies(role, "ADMIN");
  const db = await getDb();
  const w = resolveWindow(sp, org.timeZone);
  const base = `/dashboard/${org.slug}/reports`;
  const currency = org.currency;
  const money = (c: number) => formatMoney(c, currency, { short: true });

  // The API's own query schemas check the window and the number of buckets.
  const windowQuery = reportWindowQuery.safeParse({ from: w.from ?? undefined, to: w.to ?? undefined });
  const window = windowQuery.success ? windowOf(windowQuery.data, org.timeZone) : { from: null, to: null };
  const seriesQuery = reportTimeseriesQuery.safeParse({ from: w.from ?? undefined, to: w.to ?? undefined, interval: w.interval });
  let intervalError = seriesQuery.success ? null : (seriesQuery.error.issues.find((i) => i.path[0] === "interval")?.message ?? null);

  const timeZone = org.timeZone;
  const summary = await getReportSummary(db, org.id, window, { timeZone });
  let buckets: TimeseriesBucket[] | null = null;
  if (seriesQuery.success) {
    try {
      buckets = await getReportTimeseries(db, org.id, windowOf(seriesQuery.data, timeZone), seriesQuery.data.interval, { timeZone });
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== "validation_failed") throw err;
      intervalError = err.details?.fieldErrors.interval?.[0] ?? err.message;
    }
  }
  const campaigns = await getCampaignReport(db, org.id, window, { timeZone });
  const titles = new Map(campaigns.map((c) => [c.campaignId, c.title]));
  const hasPages = campaigns.some((c) => c.parentCampaignId !== null);

  // Downloads: the report's own numbers as CSV (generated here), and the API's exports.
  const stamp = [w.firstDay ?? "start", w.lastDay ?? "now"].join("_to_");
  const seriesCsv = buckets
    ? csvHref([
        csvLine(["period_start", "interval", "raised", "raised_cents", "donations", "currency"]),
        ...buckets.map((b) =>
          csvLine([b.date, w.interval, minorUnitsToDecimal(b.raisedCents, currency), b.raisedCents, b.count, currency]),
        ),
      ])
    : null;
  const campaignsCsv = csvHref([
    csvLine([
      "campaign_id",
      "campaign",
      "type",
      "status",
      "parent_campaign_id",
      "raised",
      "raised_cents",
      "donations",
      "donors",
      "raised_including_pages_cents",
      "donations_including_pages",
      "currency",
    ]),
    ...campaigns.map((c) =>
      csvLine([
        c.campaignId,
        c.title,
        c.type,
        c.status,
        c.parentCampaignId,
        minorUnitsToDecimal(c.raisedCents, currency),
        c.raisedCents,
        c.count,
        c.donors,
        c.raisedIncludingPagesCents,
        c.countIncludingPages,
        currency,
      ]),
    ),
  ]);
  const donationParams = new URLSearchParams();
  if (window.from) donationParams.set("from", window.from);
  if (window.to) donationParams.set("to", window.to);
  const api = `/api/orgs/${encodeURIComponent(org.slug)}`;

  return (
    <>
      <PageHeader
        title="Reports"
        description="What came in, when, and for which campaign. Days are UTC days; only succeeded donations count."
      />

      <nav className="tabs" aria-label="Period">
        {PRESETS.map((p) => (
          <Link
            key={p.value}
            href={p.value === "30d" ? base : `${base}?range=${p.value}`}
            aria-current={w.range === p.value ? "page" : undefined}
          >
            {p.label}
          </Link>
        ))}
        {w.range === "custom" ? (
          <a href="#report-from" aria-current="page">
            Custom
          </a>
        ) : null}
      </nav>
      <FilterForm
        action={base}
        label="Custom period and grouping"
        before={w.range !== "custom" ? <input type="hidden" name="range" value={w.range} /> : null}
        hint={
          <>
            Showing <strong style={{ color: "var(--ink)" }}>{w.label}</strong>
            {w.range === "custom" ? "" : ". Enter dates for a custom period."}
          </>
        }
        clearHref={null}
        submitLabel="Update report"
      >
        <TextField
          id="report-from"
          name="from"
          type="date"
          label="From"
          defaultValue={w.fromInput.value}
          error={w.fromInput.error}
          optional
        />
        <TextField
          id="report-to"
          name="to"
          type="date"
          label="To"
          defaultValue={w.toInput.value}
          error={w.toError}
          hint="Included"
          optional
        />
        <SelectField
          id="report-interval"
          name="interval"
          label="Group by"
          defaultValue={w.interval}
          options={INTERVALS}
          error={intervalError}
        />
      </FilterForm>

      <section aria-labelledby="summary-title">
        <h2 id="summary-title" className="sr-only">
          Summary for {w.label}
        </h2>
        <div className="stats">
          <Stat label="Raised" value={money(summary.raisedCents)} />
          <Stat label="Donations" value={count(summary.count)} />
          <Stat label="Donors" value={count(summary.donors)} />
          <Stat label="New donors" value={count(summary.newDonors)} hint="First gift in this period" />
          <Stat label="Average gift" value={money(summary.averageGiftCents)} />
          <Stat label="Monthly recurring" value={money(summary.recurringMonthlyValueCents)} hint="Active plans now" />
          <Stat
            label="Refunded"
            value={money(summary.refundedCents)}
            hint={`${count(summary.refundedCount)} donation${summary.refundedCount === 1 ? "" : "s"}`}
          />
          <Stat
            label="Disputed"
            value={money(summary.disputedCents)}
            hint={`${count(summary.disputedCount)} donation${summary.disputedCount === 1 ? "" : "s"}`}
          />
        </div>
      </section>

      <div className="stack">
        <Card title="Raised over time" id="over-time" description={`${w.label}, by ${w.interval}.`}>
          {buckets ? (
            <TimeseriesChart id="raised-chart" buckets={buckets} interval={w.interval} currency={currency} total={summary} />
          ) : (
            <Notice tone="warn" title="This chart can't be drawn for the period">
              <p>
                {(intervalError ?? "Check the dates above").replace(/\.?$/, ".")} <a href="#report-interval">Change “Group by”</a>
              </p>
            </Notice>
          )}
        </Card>

        <Card title="By campaign" id="by-campaign" description={`${w.label}. Each campaign's own gifts; they add up to the total raised.`}>
          <div className="stack" style={{ gap: 18 }}>
            <CampaignBars rows={campaigns} currency={currency} titles={titles} />
            {campaigns.length === 0 ? null : (
              <OpsTable label="Campaigns in this period">
                <caption className="sr-only">Every campaign for {w.label}, highest raised first</caption>
                <TableHead
                  columns={["Campaign", "Status", num("Raised"), num("Donations"), num("Donors"), hasPages && num("With fundraiser pages")]}
                />
                <tbody>
                  {campaigns.map((c) => (
                    <tr key={c.campaignId}>
                      <td className="title-cell">
                        <Link href={`/dashboard/${org.slug}/campaigns/${encodeURIComponent(c.campaignId)}`}>{c.title}</Link>
                        <span className="sub">
                          {TYPE_LABEL[c.type] ?? c.type}
                          {c.parentCampaignId ? ` · page of ${titles.get(c.parentCampaignId) ?? "a campaign"}` : ""}
                        </span>
                      </td>
                      <td>
                        <StatusBadge status={c.status} />
                      </td>
                      <td className="num">{money(c.raisedCents)}</td>
                      <td className="num">{count(c.count)}</td>
                      <td className="num">{count(c.donors)}</td>
                      {hasPages ? (
                        <td className="num">
                          {c.type === "PEER_TO_PEER" && !c.parentCampaignId ? (
                            <>
                              {money(c.raisedIncludingPagesCents)}
                              <span className="sub">{count(c.countIncludingPages)} donations</span>
                            </>
                          ) : (
                            <span className="muted">n/a</span>
                          )}
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </OpsTable>
            )}
          </div>
        </Card>

        <Card title="Export" id="export" description="CSV files open in Excel, Numbers and Google Sheets (UTF-8, one header row).">
          <div className="button-row">
            {seriesCsv ? (
              <a className="button secondary" href={seriesCsv} download={`goodfund-${org.slug}-raised-by-${w.interval}-${stamp}.csv`}>
                Raised over time (CSV)
              </a>
            ) : null}
            <a className="button secondary" href={campaignsCsv} download={`goodfund-${org.slug}-by-campaign-${stamp}.csv`}>
              By campaign (CSV)
            </a>
            {canExportRecords ? (
              <>
                <a className="button secondary" href={`${api}/donations/export${donationParams.size ? `?${donationParams}` : ""}`}>
                  Donations in this period (CSV)
                </a>
                <a className="button secondary" href={`${api}/donors/export`}>
                  All donors (CSV)
                </a>
              </>
            ) : null}
          </div>
          <p className="hint" style={{ marginTop: 10 }}>
            {canExportRecords
              ? "The donations file lists every donation created in the period, whatever its status; the report counts succeeded ones by the time the money came in."
              : "Files of donations and donors are available to admins of the organization."}
          </p>
        </Card>
      </div>
    </>
  );
}
