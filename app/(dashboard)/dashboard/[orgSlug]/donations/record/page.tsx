import type { Metadata } from "next";
import Link from "next/link";
import { RecordGiftForm } from "@/components/dashboard/ops/record-gift-form";
import { Card, PageHeader } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { getDb } from "@/db";
import { listCampaigns } from "@/db/queries/campaigns";
import { requireOrg } from "@/lib/auth/server";
import { roleSatisfies } from "@/lib/roles";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Record a gift" };

const STATUS_ORDER: Record<string, number> = { ACTIVE: 0, PAUSED: 1, ENDED: 2, DRAFT: 3 };

// GET /dashboard/:orgSlug/donations/record: record a gift that did not come through the donate
// form (a cheque, cash, a transfer, a grant, stock), one after another from the keyboard (admins).
export default async function RecordGiftPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/donations/record`);
  const base = `/dashboard/${org.slug}`;
  const { rows } = await listCampaigns(await getDb(), org.id, {});
  // Active campaigns first, the newest of each status first.
  const campaigns = [...rows]
    .sort((a, b) => (STATUS_ORDER[a.status] ?? 9) - (STATUS_ORDER[b.status] ?? 9))
    .map((c) => ({ value: c.id, label: c.status === "ACTIVE" ? c.title : `${c.title} (${c.status.toLowerCase()})` }));

  return (
    <>
      <PageHeader
        eyebrow={<Link href={`${base}/donations`}>Donations</Link>}
        title="Record a gift"
        description="A cheque, cash, a bank transfer, a donor-advised fund grant, stock or a gift in kind: it counts in every total, report, export and statement like a card gift, and gets its receipt number."
      />
      {!roleSatisfies(role, "ADMIN") ? (
        <Notice tone="info" title="Admins record gifts">
          <p>Ask an admin or owner of this organization to record gifts received outside the donate form.</p>
        </Notice>
      ) : campaigns.length === 0 ? (
        <Notice tone="info" title="No campaign yet">
          <p>
            A gift is recorded to a campaign. <Link href={`${base}/campaigns/new`}>Create a campaign</Link> first.
          </p>
        </Notice>
      ) : (
        <Card title="The gift" id="record-gift">
          <RecordGiftForm orgSlug={org.slug} currency={org.currency} campaigns={campaigns} />
        </Card>
      )}
    </>
  );
}
