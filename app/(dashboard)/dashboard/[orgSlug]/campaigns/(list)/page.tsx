import type { Metadata } from "next";
import Link from "next/link";
import { CampaignRowActions } from "@/components/dashboard/campaign-actions";
import { TYPE_LABEL, progressOf } from "@/components/dashboard/campaign-helpers";
import { StatusBadge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/card";
import { EmptyList, StatusTabs } from "@/components/dashboard/ops/list-page";
import { EmptyState } from "@/components/ui/empty-state";
import { LocalTime } from "@/components/ui/local-time";
import { Progress } from "@/components/ui/progress";
import { TableWrap, TableHead, num } from "@/components/ui/table";
import { getDb } from "@/db";
import { listCampaigns } from "@/db/queries/campaigns";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { CAMPAIGN_STATUSES } from "@/lib/schemas/campaigns";
import { donateBaseUrl } from "@/lib/schemas/organizations";

export const metadata: Metadata = { title: "Campaigns" };

type Status = (typeof CAMPAIGN_STATUSES)[number];
const TAB_LABEL: Record<Status, string> = { DRAFT: "Drafts", ACTIVE: "Active", PAUSED: "Paused", ENDED: "Ended" };

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<{ status?: string }> };

// GET /dashboard/:orgSlug/campaigns: every campaign with status, progress and quick actions; filter by status.
export default async function CampaignsPage({ params, searchParams }: Props) {
  const { orgSlug } = await params;
  const sp = await searchParams;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/campaigns`);
  const status = (CAMPAIGN_STATUSES as readonly string[]).includes(sp.status ?? "") ? (sp.status as Status) : null;
  const { rows: all } = await listCampaigns(await getDb(), org.id, {});
  const rows = status ? all.filter((c) => c.status === status) : all;
  const counts = Object.fromEntries(CAMPAIGN_STATUSES.map((s) => [s, all.filter((c) => c.status === s).length])) as Record<Status, number>;
  const canEdit = roleSatisfies(role, "ADMIN");
  const base = `/dashboard/${org.slug}/campaigns`;
  const titles = new Map(all.map((c) => [c.id, c.title]));
  const donateBase = donateBaseUrl(org);

  return (
    <>
      <PageHeader
        title="Campaigns"
        description="Publish, pause or end a campaign here; open one to edit every detail."
        actions={
          canEdit ? (
            <Link className="button" href={`${base}/new`}>
              New campaign
            </Link>
          ) : null
        }
      />
      <StatusTabs base={base} all={all.length} statuses={CAMPAIGN_STATUSES} current={status} label={(s) => TAB_LABEL[s]} counts={counts} />
      {all.length === 0 ? (
        <EmptyState
          title="No campaigns yet"
          action={
            canEdit ? (
              <Link className="button" href={`${base}/new`}>
                Create your first campaign
              </Link>
            ) : null
          }
        >
          {canEdit
            ? "Start with a simple donation appeal; you can add a goal, matching, tickets or a peer-to-peer challenge."
            : "Admins of this organization create campaigns; they will show up here."}
        </EmptyState>
      ) : rows.length === 0 ? (
        <EmptyList title={`No ${TAB_LABEL[status!].toLowerCase()} campaigns`} icon="∅" href={base} linkLabel="Show all campaigns">
          Nothing matches this filter.
        </EmptyList>
      ) : (
        <TableWrap label="Campaigns" cards>
          <caption className="sr-only">{status ? `${TAB_LABEL[status]} campaigns` : "All campaigns"}, newest first</caption>
          <TableHead columns={["Campaign", "Status", "Progress", num("Donations")]} actions />
          <tbody>
            {rows.map((c) => (
              <tr key={c.id}>
                <td className="title-cell" style={{ minWidth: 200 }} data-label="Campaign">
                  <Link href={`${base}/${c.id}`} prefetch={false}>
                    {c.title}
                  </Link>
                  <span className="sub">
                    {TYPE_LABEL[c.type]}
                    {c.parentCampaignId ? ` · page of ${titles.get(c.parentCampaignId) ?? "a campaign"}` : ""}
                    {c.status === "DRAFT" && c.scheduledPublishAt ? (
                      <>
                        {" "}
                        · publishes <LocalTime iso={c.scheduledPublishAt.toISOString()} />
                      </>
                    ) : null}
                  </span>
                </td>
                <td className="card-status" data-label="Status">
                  <StatusBadge status={c.status} />
                </td>
                <td className="card-lead" style={{ minWidth: 150 }} data-label="Progress">
                  <Progress {...progressOf(c, org.currency)} label={`${c.title}: progress to goal`} />
                </td>
                <td className="num" data-label="Donations">
                  {c.donationCount}
                </td>
                <td data-label="Actions">
                  <CampaignRowActions
                    campaign={{ id: c.id, title: c.title, status: c.status }}
                    donateUrl={`${donateBase}/donate/${c.slug}`}
                    canEdit={canEdit}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </>
  );
}
