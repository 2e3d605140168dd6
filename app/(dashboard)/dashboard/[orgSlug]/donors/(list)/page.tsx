import type { Metadata } from "next";
import Link from "next/link";
import { formatMoney } from "@/lib/money";
import { one } from "@/components/dashboard/ops/dates";
import { donorEmailLine, donorName } from "@/components/dashboard/ops/labels";
import styles from "@/components/dashboard/ops/ops.module.css";
import { DonorRequestsPanel } from "@/components/dashboard/ops/donor-requests-panel";
import { Pager } from "@/components/dashboard/ops/pager";
import { PageHeader } from "@/components/ui/card";
import { EmptyList, ExportCsvLink, FilterForm } from "@/components/dashboard/ops/list-page";
import { SelectField, TextField } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { getDb } from "@/db";
import { listDonorRequests } from "@/db/queries/donor-requests";
import { listDonors, listDonorTags, type DonorSort, type SortOrder } from "@/db/queries/donors";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { DONOR_LIST_DEFAULT_LIMIT } from "@/lib/schemas/donors";
import { OpsTable } from "@/components/dashboard/ops/ops-table";
import { TableHead, num } from "@/components/ui/table";
import { pageFrom, pageHref } from "@/components/dashboard/ops/paging";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Donors" };

/** The orders offered, each one `sort` of the API with the direction that makes sense for it. */
const SORTS: { value: string; label: string; sort: DonorSort; order: SortOrder }[] = [
  { value: "total", label: "Total given, highest first", sort: "total", order: "desc" },
  { value: "lastGift", label: "Last gift, newest first", sort: "lastGift", order: "desc" },
  { value: "lastGift-asc", label: "Last gift, oldest first", sort: "lastGift", order: "asc" },
  { value: "name", label: "Name, A to Z", sort: "name", order: "asc" },
  { value: "createdAt", label: "Newest donors first", sort: "createdAt", order: "desc" },
];

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

// GET /dashboard/:orgSlug/donors: one row per donor with their totals; search, sort, pages, CSV.
export default async function DonorsPage({ params, searchParams }: Props) {
  const { orgSlug } = await params;
  const sp = await searchParams;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/donors`);
  const q = one(sp.q).trim().slice(0, 200);
  const tag = one(sp.tag).trim().slice(0, 40);
  const choice = SORTS.find((s) => s.value === one(sp.sort)) ?? SORTS[0];
  const page = pageFrom(sp.page);
  const limit = DONOR_LIST_DEFAULT_LIMIT;
  const db = await getDb();
  const isAdmin = roleSatisfies(role, "ADMIN");
  // Donors' pending erasure requests, for the admins who decide them (oldest first).
  const pending = isAdmin ? (await listDonorRequests(db, org.id)).filter((r) => r.request.status === "PENDING") : [];
  const [{ rows, total }, tags] = await Promise.all([
    listDonors(db, org.id, { q: q || undefined, tag: tag || undefined, sort: choice.sort, order: choice.order }, { page, limit }),
    listDonorTags(db, org.id),
  ]);

  const base = `/dashboard/${org.slug}/donors`;
  const keep = new URLSearchParams();
  if (q) keep.set("q", q);
  if (tag) keep.set("tag", tag);
  if (choice !== SORTS[0]) keep.set("sort", choice.value);
  const href = pageHref(base, keep);
  const exportParams = new URLSearchParams({ sort: choice.sort, order: choice.order });
  if (q) exportParams.set("q", q);
  if (tag) exportParams.set("tag", tag);
  const exportHref = `/api/orgs/${encodeURIComponent(org.slug)}/donors/export?${exportParams}`;
  const sortedBy = (col: DonorSort) => (choice.sort === col ? (choice.order === "asc" ? "ascending" : "descending") : undefined);

  return (
    <>
      <PageHeader
        title="Donors"
        description="Everyone who has given, one row per email address, with what they gave in total."
        actions={
          // Bulk exports of donor data are for admins; members still see every donor here.
          roleSatisfies(role, "ADMIN") ? <ExportCsvLink href={exportHref} what="of the donors matching this search" /> : undefined
        }
      />
      {pending.length > 0 ? (
        <DonorRequestsPanel
          orgSlug={org.slug}
          requests={pending.map(({ request, donor }) => ({
            id: request.id,
            donorId: donor.id,
            donorLabel: donorEmailLine(donor) ? `${donorName(donor)} (${donor.email})` : donorName(donor),
            createdAt: request.createdAt.toISOString(),
          }))}
        />
      ) : null}
      <FilterForm
        action={base}
        label="Search and sort donors"
        hint="Totals count succeeded donations only."
        clearHref={q || tag || choice !== SORTS[0] ? base : null}
        clearLabel="Reset"
        submitLabel="Show donors"
      >
        <TextField
          id="donor-q"
          name="q"
          type="search"
          label="Search"
          placeholder="Name or email"
          defaultValue={q}
          autoComplete="off"
          className={styles.wide}
        />
        <SelectField
          id="donor-tag"
          name="tag"
          label="Tag"
          defaultValue={tag}
          options={[
            { value: "", label: "Any tag" },
            ...(tag && !tags.some((t) => t.tag === tag) ? [{ value: tag, label: tag }] : []),
            ...tags.map((t) => ({ value: t.tag, label: `${t.tag} (${t.donors})` })),
          ]}
        />
        <SelectField id="donor-sort" name="sort" label="Sort by" defaultValue={choice.value} options={SORTS} />
      </FilterForm>
      {rows.length === 0 ? (
        tag && !q ? (
          <EmptyList title={`No donors tagged “${tag}”`} icon="∅" href={base} linkLabel="Show all donors">
            Tags are added on a donor&apos;s page.
          </EmptyList>
        ) : q ? (
          <EmptyList title={`No donors match “${q}”`} icon="∅" href={base} linkLabel="Show all donors">
            Search looks in first names, last names and email addresses; try part of one.
          </EmptyList>
        ) : page > 1 ? (
          <EmptyList title="This page is empty" icon="∅" href={href(1)} linkLabel="Go to the first page" />
        ) : (
          <EmptyList title="No donors yet" icon="♥" href={`/dashboard/${org.slug}/campaigns`} linkLabel="Go to your campaigns" primary>
            A donor appears here with their first gift. Share a campaign&apos;s donate page to get started.
          </EmptyList>
        )
      ) : (
        <>
          <OpsTable label="Donors" cards>
            <caption className="sr-only">
              Donors{q ? ` matching “${q}”` : ""}
              {tag ? ` tagged “${tag}”` : ""}, sorted by {choice.label.toLowerCase()}
            </caption>
            <TableHead
              columns={[
                { label: "Donor", sort: sortedBy("name") },
                num("Total given", sortedBy("total")),
                num("Gifts"),
                "First gift",
                { label: "Last gift", sort: sortedBy("lastGift") },
              ]}
            />
            <tbody>
              {rows.map((d) => {
                const name = donorName(d);
                return (
                  <tr key={d.id}>
                    <td className="title-cell" data-label="Donor">
                      <Link href={`${base}/${encodeURIComponent(d.id)}`}>{name}</Link>
                      {donorEmailLine(d) ? <span className="sub">{donorEmailLine(d)}</span> : null}
                    </td>
                    <td className="num card-lead" data-label="Total given">
                      {formatMoney(d.totalGivenCents, org.currency, { short: true })}
                    </td>
                    <td className="num card-status" data-label="Gifts">
                      {d.donationCount}
                      <span className="card-only"> {d.donationCount === 1 ? "gift" : "gifts"}</span>
                    </td>
                    <td className="nowrap" data-label="First gift">
                      {d.firstDonationAt ? (
                        <LocalTime iso={d.firstDonationAt.toISOString()} dateOnly />
                      ) : (
                        <span className="muted">None yet</span>
                      )}
                    </td>
                    <td className="nowrap" data-label="Last gift">
                      {d.lastDonationAt ? (
                        <LocalTime iso={d.lastDonationAt.toISOString()} dateOnly />
                      ) : (
                        <span className="muted">None yet</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </OpsTable>
          <Pager page={page} limit={limit} total={total} href={href} noun="donors" />
        </>
      )}
    </>
  );
}
