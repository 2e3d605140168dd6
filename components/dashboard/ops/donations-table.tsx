"use client";

import Link from "next/link";
import { formatMoney } from "@/lib/money";
import { LocalTime } from "@/components/ui/local-time";
import { DonationStatusBadge, GiftKindMarker } from "./badges";
import { donorEmailLine, donorName } from "./labels";
import { LoadMore, useCursorList, type CursorTableProps } from "./load-more";
import { OpsTable } from "./ops-table";
import { TableHead, num } from "@/components/ui/table";

/** The fields of a donation (as the API serializes it) that a row of the list shows. */
export type DonationRowData = {
  id: string;
  createdAt: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  anonymous: boolean;
  amount: number;
  currency: string;
  status: string;
  campaignId: string;
  recurringInterval: string | null;
  isRenewal: boolean;
};

const NOUNS = { one: "donation", many: "donations" };

/**
 * The donations list. The first page is rendered by the server; "Load more" follows the API's
 * cursor (GET /api/orgs/:idOrSlug/donations, same filters) and appends the rows in place, then
 * moves focus to the first new row. Without JavaScript it is a plain link to the next page.
 */
export function DonationsTable({
  orgSlug,
  rows: initial,
  nextCursor: initialCursor,
  apiQuery,
  nextHref,
  campaigns,
  caption,
  startedAtCursor = false,
}: CursorTableProps<DonationRowData> & {
  /** Campaign titles by ID. */
  campaigns: Record<string, string>;
}) {
  const list = useCursorList({
    rows: initial,
    nextCursor: initialCursor,
    apiPath: `/api/orgs/${encodeURIComponent(orgSlug)}/donations`,
    apiQuery,
    nouns: NOUNS,
    focusSelector: "a",
  });
  const { rows, tbody } = list;
  const base = `/dashboard/${orgSlug}`;

  return (
    <>
      <OpsTable label="Donations" cards>
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={["Date", "Donor", num("Amount"), "Status", "Campaign", "Type"]} />
        <tbody ref={tbody}>
          {rows.map((d) => {
            const name = donorName(d);
            return (
              <tr key={d.id}>
                <td className="nowrap" data-label="Date">
                  <LocalTime iso={d.createdAt} />
                </td>
                <td className="title-cell" data-label="Donor">
                  <Link href={`${base}/donations/${encodeURIComponent(d.id)}`}>
                    {name}
                    <span className="sr-only"> ({formatMoney(d.amount, d.currency, { short: true })} donation)</span>
                  </Link>
                  <span className="sub">
                    {donorEmailLine(d)}
                    {d.anonymous ? `${donorEmailLine(d) ? " · " : ""}asked to be anonymous` : null}
                  </span>
                </td>
                <td className="num card-lead" data-label="Amount">
                  {formatMoney(d.amount, d.currency, { short: true })}
                </td>
                <td className="card-status" data-label="Status">
                  <DonationStatusBadge status={d.status} />
                </td>
                <td style={{ minWidth: 140 }} data-label="Campaign">
                  <Link href={`${base}/campaigns/${encodeURIComponent(d.campaignId)}`}>{campaigns[d.campaignId] ?? "Campaign"}</Link>
                </td>
                <td className="wrap" data-label="Type">
                  <GiftKindMarker recurringInterval={d.recurringInterval} isRenewal={d.isRenewal} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </OpsTable>
      <LoadMore list={list} nextHref={nextHref} nouns={NOUNS} startedAtCursor={startedAtCursor} endText="End of the list." />
    </>
  );
}
