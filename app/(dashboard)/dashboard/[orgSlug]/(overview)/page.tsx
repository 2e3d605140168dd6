import type { Metadata } from "next";
import Link from "next/link";
import { ConnectPayoutsButton } from "@/components/dashboard/connect-payouts-button";
import { ProcessorSyncCard } from "@/components/dashboard/processor-sync-card";
import { TYPE_LABEL, progressOf } from "@/components/dashboard/campaign-helpers";
import { formatMoney } from "@/lib/money";
import { StatusBadge } from "@/components/ui/badge";
import { PageHeader, Stat } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/notice";
import { Progress } from "@/components/ui/progress";
import { TableWrap, TableHead, num } from "@/components/ui/table";
import { getDb } from "@/db";
import { listCampaigns } from "@/db/queries/campaigns";
import { countDonationsByStatus } from "@/db/queries/donations";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { COMPLETED_DONATION_STATUSES } from "@/lib/schemas/donations";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { reconcileStatusForOrg } from "@/lib/services/processor/reconcile";

type Props = { params: Promise<{ orgSlug: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { orgSlug } = await params;
  const { org } = await requireOrg(orgSlug);
  return { title: org.name };
}

// GET /dashboard/:orgSlug: status (with the payouts call to action while onboarding), totals, recent campaigns.
export default async function OrgOverview({ params }: Props) {
  const { orgSlug } = await params;
  const { org, role } = await requireOrg(orgSlug);
  const db = await getDb();
  const [{ rows }, byStatus, sync] = await Promise.all([
    listCampaigns(db, org.id, {}),
    countDonationsByStatus(db, org.id),
    reconcileStatusForOrg(db, org.id),
  ]);
  // A peer-to-peer parent already counts its fundraiser pages, so only top-level campaigns add up.
  const topLevel = rows.filter((c) => !c.parentCampaignId);
  const raised = topLevel.reduce((s, c) => s + c.raisedAmountCents, 0);
  // Completed gifts, as the donations list shows them by default: succeeded, and those since
  // refunded or disputed (which no longer add to what was raised).
  const gifts = COMPLETED_DONATION_STATUSES.reduce((n, status) => n + (byStatus[status] ?? 0), 0);
  const reversed = gifts - (byStatus.SUCCEEDED ?? 0);
  const active = rows.filter((c) => c.status === "ACTIVE").length;
  const recent = rows.slice(0, 5);
  const base = `/dashboard/${org.slug}`;
  const canEdit = roleSatisfies(role, "ADMIN");

  return (
    <>
      <PageHeader
        eyebrow="Overview"
        title={
          <>
            {org.name} <StatusBadge status={org.status} />
          </>
        }
        description={
          <>
            Donate pages live at{" "}
            <a href={donateBaseUrl(org)} className="nowrap">
              {donateBaseUrl(org).replace(/^https?:\/\//, "")}
            </a>
          </>
        }
        actions={
          canEdit ? (
            <Link className="button" href={`${base}/campaigns/new`}>
              New campaign
            </Link>
          ) : null
        }
      />
      {org.status === "ONBOARDING" ? (
        <div style={{ marginBottom: 16 }}>
          <Notice
            tone="warn"
            title="Connect payouts to start taking donations"
            actions={
              role === "OWNER" ? (
                <ConnectPayoutsButton orgSlug={org.slug} label={org.processorAccountId ? "Continue onboarding" : "Connect payouts"} />
              ) : null
            }
          >
            <p>
              {role === "OWNER"
                ? "Donations go straight to your organization's payout account. Connect it once; campaigns can be drafted meanwhile."
                : "An owner of this organization needs to connect the payout account before campaigns can take donations."}
            </p>
          </Notice>
        </div>
      ) : null}
      <div className="stats">
        <Stat label="Raised" value={formatMoney(raised, org.currency, { short: true })} hint="All campaigns, succeeded gifts" />
        <Stat
          label="Donations"
          value={gifts.toLocaleString("en-US")}
          hint={
            <Link href={`${base}/donations`}>
              {reversed > 0 ? `Completed gifts, ${reversed.toLocaleString("en-US")} since refunded or disputed` : "Completed gifts"}
            </Link>
          }
        />
        <Stat label="Active campaigns" value={active} hint={`${rows.length} in total`} />
        <Stat
          label="Payouts"
          value={org.chargesEnabled && org.payoutsEnabled ? "Connected" : "Not connected"}
          hint={<Link href={`${base}/settings/payouts`}>Payout settings</Link>}
        />
      </div>
      <section aria-labelledby="recent-title" className="stack" style={{ gap: 10 }}>
        <div style={{ display: "flex", justifyContent: "space-between", alignItems: "baseline", gap: 12 }}>
          <h2 id="recent-title" style={{ margin: 0, fontSize: "1.1rem" }}>
            Recent campaigns
          </h2>
          {rows.length > 0 ? <Link href={`${base}/campaigns`}>All campaigns</Link> : null}
        </div>
        {recent.length === 0 ? (
          <EmptyState
            title="No campaigns yet"
            action={
              canEdit ? (
                <Link className="button" href={`${base}/campaigns/new`}>
                  Create your first campaign
                </Link>
              ) : null
            }
          >
            Campaigns are what donors give to: an appeal, a peer-to-peer challenge, an event with tickets or a membership.
          </EmptyState>
        ) : (
          <TableWrap label="Recent campaigns">
            <TableHead columns={["Campaign", "Status", "Progress", num("Donations")]} />
            <tbody>
              {recent.map((c) => (
                <tr key={c.id}>
                  <td className="title-cell">
                    <Link href={`${base}/campaigns/${c.id}`} prefetch={false}>
                      {c.title}
                    </Link>
                    <span className="sub">{TYPE_LABEL[c.type]}</span>
                  </td>
                  <td>
                    <StatusBadge status={c.status} />
                  </td>
                  <td>
                    <Progress {...progressOf(c, org.currency)} label={`${c.title}: progress to goal`} />
                  </td>
                  <td className="num">{c.donationCount}</td>
                </tr>
              ))}
            </tbody>
          </TableWrap>
        )}
      </section>
      <div style={{ marginTop: 24 }}>
        <ProcessorSyncCard orgSlug={org.slug} lastRun={sync.lastRun} repairs={sync.repairs} />
      </div>
    </>
  );
}
