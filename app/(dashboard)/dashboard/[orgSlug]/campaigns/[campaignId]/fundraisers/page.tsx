import type { Metadata } from "next";
import Link from "next/link";
import { EmailFundraisers, FundraiserModeration } from "@/components/dashboard/fundraiser-actions";
import { StatusBadge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/card";
import { TableHead, TableWrap, num } from "@/components/ui/table";
import { listParentFundraisers } from "@/db/queries/fundraisers";
import { formatMoney } from "@/lib/money";
import { roleSatisfies } from "@/lib/roles";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { loadCampaign } from "../../../records";

type Props = { params: Promise<{ orgSlug: string; campaignId: string }> };

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { campaign } = await loadCampaign(props);
  return { title: `Fundraisers · ${campaign.title}` };
}

const MODERATION: Record<string, string> = { PENDING_APPROVAL: "Waiting for approval", APPROVED: "Approved", HIDDEN: "Hidden" };

// GET /dashboard/:orgSlug/campaigns/:id/fundraisers: a peer-to-peer campaign's pages and teams, their totals and status; approve, hide, export, email all.
export default async function CampaignFundraisersPage(props: Props) {
  const { org, role, db, campaign } = await loadCampaign(props);
  const canEdit = roleSatisfies(role, "ADMIN");
  const rows = await listParentFundraisers(db, campaign.id);
  const base = `/dashboard/${org.slug}`;
  const donate = `${donateBaseUrl(org)}/donate/`;
  const money = (cents: number) => formatMoney(cents, org.currency);
  const teams = new Map(rows.filter((r) => r.isTeam).map((r) => [r.id, r.title]));

  return (
    <>
      <PageHeader
        eyebrow={<Link href={`${base}/campaigns/${campaign.id}`}>{campaign.title}</Link>}
        title="Fundraisers"
        description={`${rows.filter((r) => !r.isTeam).length} pages · ${teams.size} teams`}
        actions={
          <a className="button secondary" href={`/api/campaigns/${campaign.id}/fundraisers/export`} download>
            Export CSV
          </a>
        }
      />
      {rows.length === 0 ? (
        <p>No fundraiser pages yet. Supporters start them from the campaign&apos;s donate page.</p>
      ) : (
        <TableWrap label="Fundraiser pages and teams" cards>
          <TableHead columns={["Page", "Supporter", "Team", "Status", num("Raised"), num("Goal")]} actions={canEdit} />
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td data-label="Page">
                  <Link href={`${base}/campaigns/${r.id}`}>{r.title}</Link>
                  {r.isTeam ? " (team)" : ""}{" "}
                  <a href={`${donate}${r.slug}`} target="_blank" rel="noopener noreferrer">
                    View<span className="sr-only"> {r.title} (opens in a new tab)</span>
                  </a>
                </td>
                <td data-label="Supporter">{[r.fundraiserFirstName, r.fundraiserLastName].filter(Boolean).join(" ") || "Staff"}</td>
                <td data-label="Team">{r.teamId ? (teams.get(r.teamId) ?? "—") : "—"}</td>
                <td data-label="Status" className="card-status">
                  <StatusBadge status={r.status} /> {r.moderation ? MODERATION[r.moderation] : ""}
                </td>
                <td data-label="Raised" className="num card-lead">
                  {money(r.raisedAmountCents)} ({r.donationCount})
                </td>
                <td data-label="Goal" className="num">
                  {r.goalAmountCents ? money(r.goalAmountCents) : "—"}
                </td>
                {canEdit && (
                  <td>
                    {r.fundraiserFirstName !== null && (
                      <FundraiserModeration page={{ id: r.id, title: r.title, moderation: r.moderation, status: r.status }} />
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      {canEdit && (
        <section className="card">
          <EmailFundraisers campaignId={campaign.id} />
        </section>
      )}
    </>
  );
}
