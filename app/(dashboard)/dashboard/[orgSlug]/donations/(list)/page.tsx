import type { Metadata } from "next";
import Link from "next/link";
import { DonationsTable, type DonationRowData } from "@/components/dashboard/ops/donations-table";
import { endOfDay, one, readDate, startOfDay } from "@/components/dashboard/ops/dates";
import { DONATION_STATUS_OPTIONS } from "@/components/dashboard/ops/labels";
import styles from "@/components/dashboard/ops/ops.module.css";
import { CursorNotices, EmptyList, ExportCsvLink, FilterForm } from "@/components/dashboard/ops/list-page";
import { PageHeader } from "@/components/ui/card";
import { CheckboxField, SelectField, TextField } from "@/components/ui/field";
import { getDb } from "@/db";
import { listCampaigns } from "@/db/queries/campaigns";
import { listDonationsPage } from "@/db/queries/donations";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import {
  COMPLETED_DONATION_STATUSES,
  DONATION_LIST_DEFAULT_LIMIT,
  DONATION_STATUSES,
  decodeDonationCursor,
  encodeDonationCursor,
  exportDonationsQuery,
  serializeDonation,
} from "@/lib/schemas/donations";
import { oneOf } from "@/components/dashboard/ops/paging";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Donations" };

type SearchParams = Record<string, string | string[] | undefined>;
type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<SearchParams> };

// GET /dashboard/:orgSlug/donations: completed gifts (succeeded, disputed, refunded), newest first;
// `incomplete=1` adds checkouts never paid and failed payments. Filtered by the URL (status,
// campaign, from/to dates in UTC, search), a cursor "Load more", and the same filters as CSV.
export default async function DonationsPage({ params, searchParams }: Props) {
  const { orgSlug } = await params;
  const sp = await searchParams;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/donations`);
  const db = await getDb();
  const { rows: campaigns } = await listCampaigns(db, org.id, {});
  const campaignTitles = Object.fromEntries(campaigns.map((c) => [c.id, c.title]));

  // The form's values, each checked; a bad one is reported next to its field and left out.
  const status: string = oneOf(DONATION_STATUSES, sp.status) ?? "";
  const campaignId = campaignTitles[one(sp.campaign)] ? one(sp.campaign) : "";
  const from = readDate(sp.from);
  const to = readDate(sp.to);
  const q = one(sp.q).trim().slice(0, 200);
  const includeIncomplete = one(sp.incomplete) === "1";
  let toError = to.error;
  if (!toError && from.ms !== null && to.ms !== null && to.ms < from.ms) toError = "Must be on or after the “From” date";
  // A chosen status is shown whatever it is; otherwise completed gifts, unless incomplete ones are asked for.
  const statuses = status || (includeIncomplete ? undefined : COMPLETED_DONATION_STATUSES.join(","));
  const filterInput = {
    status: statuses,
    campaignId: campaignId || undefined,
    from: from.ms !== null ? startOfDay(from.ms, org.timeZone) : undefined,
    to: to.ms !== null && !toError ? endOfDay(to.ms, org.timeZone) : undefined,
    q: q || undefined,
  };
  // The same schema as the API's list and export, so the page, "Load more" and the CSV agree.
  const parsed = exportDonationsQuery.safeParse(filterInput);
  const filter = parsed.success ? parsed.data : {};
  const rawCursor = one(sp.cursor);
  const cursor = rawCursor ? decodeDonationCursor(rawCursor) : null;

  const { rows, nextCursor } = await listDonationsPage(db, org.id, filter, { limit: DONATION_LIST_DEFAULT_LIMIT, cursor });
  const filtered = Boolean(status || campaignId || from.value || to.value || q || includeIncomplete);
  const hidingIncomplete = !status && !includeIncomplete;

  // The filters as the API's query string (list and export) and as this page's URL.
  const apiParams = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) {
    if (Array.isArray(v) && v.length) apiParams.set(k, v.join(","));
    else if (typeof v === "string" && v) apiParams.set(k, v);
  }
  const pageParams = new URLSearchParams();
  if (status) pageParams.set("status", status);
  if (includeIncomplete) pageParams.set("incomplete", "1");
  if (campaignId) pageParams.set("campaign", campaignId);
  if (from.value) pageParams.set("from", from.value);
  if (to.value) pageParams.set("to", to.value);
  if (q) pageParams.set("q", q);
  const base = `/dashboard/${org.slug}/donations`;
  const exportHref = `/api/orgs/${encodeURIComponent(org.slug)}/donations/export${apiParams.size ? `?${apiParams}` : ""}`;
  const next = nextCursor ? encodeDonationCursor(nextCursor) : null;
  const nextHref = next ? `${base}?${new URLSearchParams([...pageParams, ["cursor", next]])}` : null;
  const data: DonationRowData[] = rows.map((r) => serializeDonation(r.donation));

  const statusLabel = DONATION_STATUS_OPTIONS.find((o) => o.value === status)?.label;
  const caption = [
    "Donations, newest first",
    status ? `status ${statusLabel}` : includeIncomplete ? "including incomplete" : "completed only",
    campaignId ? `campaign ${campaignTitles[campaignId]}` : null,
    from.value ? `from ${from.value}` : null,
    to.value ? `to ${to.value}` : null,
    q ? `matching “${q}”` : null,
  ]
    .filter(Boolean)
    .join(", ");

  return (
    <>
      <PageHeader
        title="Donations"
        description="Completed gifts to your campaigns, newest first (refunded and disputed ones included). Open one for its timeline, receipts and refunds."
        actions={
          // Bulk exports of donor data, and recording gifts, are for admins; members still see every donation here.
          roleSatisfies(role, "ADMIN") ? (
            <>
              <Link className="button" href={`${base}/record`}>
                Record a gift
              </Link>
              <ExportCsvLink href={exportHref} what="of the donations shown by these filters" />
            </>
          ) : undefined
        }
      />
      <FilterForm
        action={base}
        label="Filter donations"
        hint={
          filtered
            ? "Filters apply to the list and to the CSV export."
            : "Incomplete checkouts are hidden. Dates are the day the donation was made (UTC)."
        }
        clearHref={filtered ? base : null}
      >
        <TextField
          id="filter-q"
          name="q"
          label="Search"
          type="search"
          defaultValue={q}
          placeholder="Name or email"
          autoComplete="off"
          className={styles.wide}
        />
        <SelectField id="filter-status" name="status" label="Status" defaultValue={status} options={DONATION_STATUS_OPTIONS} />
        <SelectField
          id="filter-campaign"
          name="campaign"
          label="Campaign"
          defaultValue={campaignId}
          options={[{ value: "", label: "All campaigns" }, ...campaigns.map((c) => ({ value: c.id, label: c.title }))]}
        />
        <TextField id="filter-from" name="from" label="From" type="date" defaultValue={from.value} error={from.error} hint="UTC day" />
        <TextField id="filter-to" name="to" label="To" type="date" defaultValue={to.value} error={toError} hint="Included" />
        <CheckboxField
          id="filter-incomplete"
          name="incomplete"
          value="1"
          label="Include incomplete"
          hint="Checkouts never paid and failed payments"
          defaultChecked={includeIncomplete}
        />
      </FilterForm>
      <CursorNotices base={base} pageParams={pageParams} rawCursor={rawCursor} cursor={cursor} noun="donations" />
      {data.length === 0 ? (
        filtered ? (
          <EmptyList title="No donations match these filters" icon="∅" href={base} linkLabel="Clear filters">
            Try a wider date range, another status, or part of a name or email address.
            {hidingIncomplete ? (
              <>
                {" "}
                Incomplete gifts (checkouts never paid, failed payments) are hidden:{" "}
                <Link href={`${base}?${new URLSearchParams([...pageParams, ["incomplete", "1"]])}`}>include them</Link>.
              </>
            ) : null}
          </EmptyList>
        ) : (
          <EmptyList
            title="No completed donations yet"
            icon="$"
            href={`/dashboard/${org.slug}/campaigns`}
            linkLabel="Share a campaign"
            primary
          >
            Gifts show up here once their payment goes through. Checkouts that were started but never paid, and failed payments, are hidden:{" "}
            <Link href={`${base}?incomplete=1`}>include incomplete gifts</Link> to see them.
          </EmptyList>
        )
      ) : (
        <DonationsTable
          key={`${apiParams}|${rawCursor}`}
          orgSlug={org.slug}
          rows={data}
          nextCursor={next}
          apiQuery={new URLSearchParams([...apiParams, ["limit", String(DONATION_LIST_DEFAULT_LIMIT)]]).toString()}
          nextHref={nextHref}
          campaigns={campaignTitles}
          caption={caption}
          startedAtCursor={Boolean(cursor)}
        />
      )}
    </>
  );
}
