import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CheckInDesk } from "@/components/dashboard/check-in-desk";
import { PageHeader } from "@/components/ui/card";
import { loadCampaign } from "../../../records";

type Props = { params: Promise<{ orgSlug: string; campaignId: string }> };

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { campaign } = await loadCampaign(props);
  return { title: `Check-in · ${campaign.title}` };
}

// GET /dashboard/:orgSlug/campaigns/:id/check-in: the door of an event, for a phone: scan QR tickets, search guests, live counts per tier.
export default async function CheckInPage(props: Props) {
  const { org, campaign } = await loadCampaign(props);
  if (campaign.type !== "EVENT") notFound();
  return (
    <>
      <PageHeader
        eyebrow={<Link href={`/dashboard/${org.slug}/campaigns/${campaign.id}`}>{campaign.title}</Link>}
        title="Check-in"
        description="Scan each guest's QR code, or find them by name. Several staff can check guests in at once."
      />
      <CheckInDesk campaignId={campaign.id} />
    </>
  );
}
