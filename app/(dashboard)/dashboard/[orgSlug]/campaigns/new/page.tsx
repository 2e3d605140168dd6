import type { Metadata } from "next";
import Link from "next/link";
import { CampaignEditor } from "@/components/dashboard/campaign-editor";
import { PageHeader } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { getDb } from "@/db";
import { listCampaigns } from "@/db/queries/campaigns";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { donateBaseUrl } from "@/lib/schemas/organizations";

export const metadata: Metadata = { title: "New campaign" };

// GET /dashboard/:orgSlug/campaigns/new: the campaign editor, empty (ADMIN).
export default async function NewCampaignPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/campaigns/new`);
  const canEdit = roleSatisfies(role, "ADMIN");
  const { rows } = await listCampaigns(await getDb(), org.id, { type: "PEER_TO_PEER" });
  const parents = rows.filter((c) => !c.parentCampaignId).map((c) => ({ id: c.id, title: c.title }));

  return (
    <>
      <PageHeader
        eyebrow={<Link href={`/dashboard/${org.slug}/campaigns`}>Campaigns</Link>}
        title="New campaign"
        description="Fill in what you need now; everything can change later. Drafts stay private until you publish."
      />
      {canEdit ? (
        <CampaignEditor
          timeZone={org.timeZone}
          mode="create"
          orgSlug={org.slug}
          currency={org.currency}
          campaign={null}
          parentOptions={parents}
          canEdit
          donatePrefix={`${donateBaseUrl(org)}/donate/`}
        />
      ) : (
        <Notice tone="info">
          <p>Creating campaigns needs the Admin or Owner role in {org.name}.</p>
        </Notice>
      )}
    </>
  );
}
