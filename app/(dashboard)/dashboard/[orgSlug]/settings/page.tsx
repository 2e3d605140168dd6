import { timeZoneNames } from "@/lib/time-zone";
import type { Metadata } from "next";
import Link from "next/link";
import { CustomDomainPanel } from "@/components/dashboard/custom-domain-panel";
import { OrgSettingsForm } from "@/components/dashboard/org-settings-form";
import { ReceiptProfileForm } from "@/components/dashboard/receipt-profile-form";
import { RequireTwoFactorForm } from "@/components/security/require-two-factor-form";
import { Card, PageHeader } from "@/components/ui/card";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { customDomainVerification, donateBaseUrl } from "@/lib/schemas/organizations";
import { receiptPreviews } from "@/lib/services/receipts/receipt-preview";

export const metadata: Metadata = { title: "Settings" };

// GET /dashboard/:orgSlug/settings: the organization's details (ADMIN edits, members read).
export default async function OrgSettings({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { org, role, user } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/settings`);
  const canEdit = roleSatisfies(role, "ADMIN");
  return (
    <>
      <PageHeader eyebrow="Settings" title="Organization" description="How your organization appears to donors and on receipts." />
      <div className="stack">
        <Card title="Details" description={canEdit ? undefined : "Only admins and owners can change these."}>
          <OrgSettingsForm
            orgSlug={org.slug}
            canEdit={canEdit}
            timeZones={timeZoneNames().includes(org.timeZone) ? timeZoneNames() : [org.timeZone, ...timeZoneNames()]}
            initial={{
              name: org.name,
              notificationEmail: org.notificationEmail ?? "",
              legalName: org.legalName ?? "",
              taxId: org.taxId ?? "",
              address: org.address ?? "",
              receiptStatement: org.receiptStatement ?? "",
              donorErasureNeedsApproval: org.donorErasureNeedsApproval,
              logoUrl: org.logoUrl ?? "",
              color: org.color ?? "",
              defaultLocale: org.defaultLocale,
              timeZone: org.timeZone,
            }}
          />
        </Card>
        <Card
          title="Receipts"
          id="receipts"
          description="What your receipts say, by the country whose tax rules they follow. The legal name, tax ID, address and statement above are printed on them."
        >
          <ReceiptProfileForm orgSlug={org.slug} initial={org.receiptProfile} previews={receiptPreviews(org)} canEdit={canEdit} />
        </Card>
        <Card title="Security" id="security" description={role === "OWNER" ? undefined : "Only owners can change this."}>
          {role === "OWNER" ? (
            <RequireTwoFactorForm orgSlug={org.slug} initial={org.requireTwoFactor} ownTwoFactor={user.twoFactorEnabledAt !== null} />
          ) : (
            <p style={{ margin: 0 }}>
              Two-factor authentication is {org.requireTwoFactor ? "required" : "not required"} for members of this organization.
            </p>
          )}
        </Card>
        <Card
          title="Custom domain"
          id="custom-domain"
          description="Serve your donate pages on your own domain, such as give.example.org, once its DNS proves it is yours."
        >
          <CustomDomainPanel
            orgSlug={org.slug}
            canEdit={canEdit}
            initial={{
              customDomain: org.customDomain,
              customDomainStatus: org.customDomain ? org.customDomainStatus : null,
              customDomainVerification: customDomainVerification(org),
            }}
          />
        </Card>
        <Card title="Addresses">
          <dl className="kv">
            <dt>Slug</dt>
            <dd>
              <code>{org.slug}</code>
            </dd>
            <dt>Donate pages</dt>
            <dd>{donateBaseUrl(org)}</dd>
            <dt>Organization ID</dt>
            <dd>
              <code>{org.id}</code>
            </dd>
          </dl>
          <p className="small muted" style={{ marginBottom: 0 }}>
            Payout account: see <Link href={`/dashboard/${org.slug}/settings/payouts`}>Payouts</Link>.
          </p>
        </Card>
      </div>
    </>
  );
}
