import type { Metadata } from "next";
import { ImportsManager } from "@/components/dashboard/imports-manager";
import { AdminOnly } from "@/components/dashboard/ops/admin-only";
import { PageHeader } from "@/components/ui/card";
import { getDb } from "@/db";
import { listCampaigns } from "@/db/queries/campaigns";
import { listImports } from "@/db/queries/imports";
import { requireOrg } from "@/lib/auth/server";
import { roleSatisfies } from "@/lib/roles";
import { serializeImport } from "@/lib/schemas/imports";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Import" };

type Props = { params: Promise<{ orgSlug: string }> };

// GET /dashboard/:orgSlug/imports: bring donors and gifts from a CSV export (admins): upload with
// a preset, preview and per-row errors, commit with live progress, and the history with undo.
export default async function ImportsPage({ params }: Props) {
  const { orgSlug } = await params;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/imports`);
  const header = (
    <PageHeader
      eyebrow="Fundraising"
      title="Import"
      description="Bring your history: donors and gifts from a CSV export of Goodfund, Givebutter, Donorbox or Stripe. Nothing changes until you commit, and a finished import can be undone."
    />
  );
  if (!roleSatisfies(role, "ADMIN")) {
    return (
      <AdminOnly
        header={header}
        orgSlug={org.slug}
        title="Imports are for admins"
        why={<>An import adds gifts to every total, so only admins and owners can run one.</>}
      />
    );
  }
  const db = await getDb();
  const [{ rows: campaigns }, { rows: history }] = await Promise.all([
    listCampaigns(db, org.id, {}),
    listImports(db, org.id, { page: 1, limit: 25 }),
  ]);
  return (
    <>
      {header}
      <ImportsManager
        orgId={org.id}
        currency={org.currency}
        campaigns={campaigns.map((c) => ({ id: c.id, slug: c.slug, title: c.title }))}
        initialHistory={history.map(serializeImport)}
      />
    </>
  );
}
