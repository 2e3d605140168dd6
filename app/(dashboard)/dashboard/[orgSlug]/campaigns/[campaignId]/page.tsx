import type { Metadata } from "next";
import Link from "next/link";
import { CampaignEditor } from "@/components/dashboard/campaign-editor";
import { TicketTiersEditor } from "@/components/dashboard/ticket-tiers-editor";
import { TYPE_LABEL, embedSnippet, progressOf } from "@/components/dashboard/campaign-helpers";
import { CampaignStatusPanel } from "@/components/dashboard/campaign-status-panel";
import { formatMoney } from "@/lib/money";
import { StatusBadge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy-button";
import { LocalTime } from "@/components/ui/local-time";
import { Progress } from "@/components/ui/progress";
import { listCampaigns } from "@/db/queries/campaigns";
import { getEnv } from "@/lib/env";
import { roleSatisfies } from "@/lib/roles";
import { serializeCampaign } from "@/lib/schemas/campaigns";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { loadCampaign } from "../../records";

type Props = { params: Promise<{ orgSlug: string; campaignId: string }> };

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { campaign } = await loadCampaign(props);
  return { title: campaign.title };
}

// GET /dashboard/:orgSlug/campaigns/:id: edit every field, change status, share (link and embed), progress.
export default async function CampaignPage(props: Props) {
  const { org, role, db, campaign } = await loadCampaign(props);
  const canEdit = roleSatisfies(role, "ADMIN");
  const view = serializeCampaign(campaign);
  const { rows: p2p } = await listCampaigns(db, org.id, { type: "PEER_TO_PEER" });
  const parents = p2p.filter((c) => !c.parentCampaignId && c.id !== campaign.id).map((c) => ({ id: c.id, title: c.title }));
  const parent = campaign.parentCampaignId ? p2p.find((c) => c.id === campaign.parentCampaignId) : undefined;
  const donateUrl = `${donateBaseUrl(org)}/donate/${campaign.slug}`;
  const base = `/dashboard/${org.slug}`;

  return (
    <>
      <PageHeader
        eyebrow={<Link href={`${base}/campaigns`}>Campaigns</Link>}
        title={
          <>
            {campaign.title} <StatusBadge status={campaign.status} />
          </>
        }
        description={
          <>
            {TYPE_LABEL[campaign.type]}
            {parent ? (
              <>
                {" "}
                · page of <Link href={`${base}/campaigns/${parent.id}`}>{parent.title}</Link>
              </>
            ) : null}{" "}
            · created <LocalTime iso={view.createdAt} dateOnly />
          </>
        }
        actions={
          <>
            {campaign.type === "EVENT" && (
              <>
                <Link className="button secondary" href={`${base}/campaigns/${campaign.id}/check-in`}>
                  Check-in
                </Link>
                <a className="button secondary" href={`/api/campaigns/${campaign.id}/tickets/export`} download>
                  Attendees CSV
                </a>
              </>
            )}
            {campaign.type === "PEER_TO_PEER" && !campaign.parentCampaignId && (
              <Link className="button secondary" href={`${base}/campaigns/${campaign.id}/fundraisers`}>
                Fundraisers
              </Link>
            )}
            <a className="button secondary" href={donateUrl} target="_blank" rel="noopener noreferrer">
              {campaign.status === "DRAFT" ? "Preview donate page" : "View donate page"}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </>
        }
      />
      <div className="editor-layout">
        <div className="stack" style={{ gap: 16, minWidth: 0 }}>
          <CampaignEditor
            mode="edit"
            orgSlug={org.slug}
            currency={org.currency}
            timeZone={org.timeZone}
            campaign={view}
            parentOptions={parents}
            canEdit={canEdit}
            donatePrefix={`${donateBaseUrl(org)}/donate/`}
          />
          {campaign.type === "EVENT" && view.ticketTiers.length > 0 ? (
            <TicketTiersEditor campaignId={campaign.id} currency={org.currency} tiers={view.ticketTiers} canEdit={canEdit} />
          ) : null}
        </div>
        <aside className="editor-aside" aria-label="Status and sharing">
          <CampaignStatusPanel
            timeZone={org.timeZone}
            orgSlug={org.slug}
            canEdit={canEdit}
            campaign={{
              id: campaign.id,
              title: campaign.title,
              status: campaign.status,
              scheduledPublishAt: view.scheduledPublishAt,
              donationCount: campaign.donationCount,
            }}
          />
          <section className="card stack" style={{ gap: 10 }} aria-labelledby="progress-title">
            <h2 id="progress-title" className="card-title" style={{ margin: 0 }}>
              Progress
            </h2>
            <Progress {...progressOf(campaign, org.currency)} label="Progress to goal" />
            <dl className="kv small">
              <dt>Donations</dt>
              <dd>{campaign.donationCount.toLocaleString("en-US")}</dd>
              {campaign.matchingEnabled ? (
                <>
                  <dt>Matched</dt>
                  <dd>{formatMoney(campaign.matchedAmountCents, org.currency, { short: true })}</dd>
                </>
              ) : null}
              {campaign.type === "EVENT" ? (
                <>
                  <dt>Tickets</dt>
                  <dd>
                    {campaign.ticketsSold} sold{campaign.ticketCapacity ? ` of ${campaign.ticketCapacity}` : ""}
                  </dd>
                </>
              ) : null}
            </dl>
          </section>
          <section className="card stack" style={{ gap: 12 }} aria-labelledby="share-title">
            <h2 id="share-title" className="card-title" style={{ margin: 0 }}>
              Share
            </h2>
            {campaign.status === "DRAFT" ? (
              <p className="small muted" style={{ margin: 0 }}>
                Until the campaign is published, this link shows a preview to your organization&rsquo;s members only; donors get &ldquo;page
                not found&rdquo;.
              </p>
            ) : null}
            <CopyField id="share-link" label="Donate link" value={donateUrl} />
            <CopyField
              id="share-embed-button"
              label="Donate button for your website"
              value={embedSnippet(donateUrl, campaign.title, getEnv().appUrl, "button")}
              multiline
              hint="Paste this HTML where the button should appear: it opens the donate form over your page."
            />
            <CopyField
              id="share-embed-inline"
              label="Donate form for your website"
              value={embedSnippet(donateUrl, campaign.title, getEnv().appUrl, "inline")}
              multiline
              hint={`Paste this HTML where the form itself should appear. If your site sends a Content-Security-Policy, allow ${new URL(getEnv().appUrl).origin} in script-src and ${new URL(donateUrl).origin} in frame-src.`}
            />
          </section>
        </aside>
      </div>
    </>
  );
}
