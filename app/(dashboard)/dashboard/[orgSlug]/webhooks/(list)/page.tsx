import type { Metadata } from "next";
import { AdminOnly } from "@/components/dashboard/ops/admin-only";
import { WebhookEndpoints, type EndpointView } from "@/components/dashboard/ops/webhook-endpoints";
import { PageHeader } from "@/components/ui/card";
import { getDb } from "@/db";
import { listWebhookDeliveries, listWebhookEndpoints } from "@/db/queries/webhooks";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { serializeWebhookDelivery, serializeWebhookEndpoint } from "@/lib/schemas/webhooks";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks" };

type Props = { params: Promise<{ orgSlug: string }> };

// GET /dashboard/:orgSlug/webhooks: outbound webhook endpoints (ADMIN): add, test, enable or
// disable, rotate the secret, delete; each links to its delivery log.
export default async function WebhooksPage({ params }: Props) {
  const { orgSlug } = await params;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/webhooks`);
  const header = (
    <PageHeader
      eyebrow="Developers"
      title="Webhooks"
      description="Send events to your own systems as they happen: donations, recurring plans, campaigns and payouts."
    />
  );
  if (!roleSatisfies(role, "ADMIN")) {
    return <AdminOnly header={header} orgSlug={org.slug} />;
  }
  const db = await getDb();
  const rows = await listWebhookEndpoints(db, org.id);
  const endpoints: EndpointView[] = [];
  for (const row of rows) {
    const { rows: latest } = await listWebhookDeliveries(db, row.id, { page: 1, limit: 1 });
    const last = latest[0] ? serializeWebhookDelivery(latest[0]) : null;
    endpoints.push({
      ...serializeWebhookEndpoint(row),
      lastDelivery: last ? { at: last.createdAt, success: last.success, statusCode: last.statusCode } : null,
    });
  }
  return (
    <>
      {header}
      <WebhookEndpoints orgSlug={org.slug} endpoints={endpoints} />
    </>
  );
}
