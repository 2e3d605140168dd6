import type { Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translate";
import { AccountSection } from "./account-section";
import { DataRequestActions } from "./data-request-actions";

/**
 * The account page's "Your data" section: the donor downloads a copy of what the organization
 * holds about them, or asks to have their personal data erased (at once, or reviewed by the
 * organization first when it chose so; a request already waiting is said so instead).
 */
export function DataRequests({
  org,
  pendingSince,
  locale,
}: {
  org: { name: string; slug: string; donorErasureNeedsApproval: boolean };
  /** When an erasure request of the donor's already waits for the organization's review. */
  pendingSince: Date | null;
  locale: Locale;
}) {
  const t = translator(locale, "account");
  return (
    <AccountSection id="your-data-title" title={t("data.title")}>
      <p>{t("data.lead", { orgName: org.name })}</p>
      <DataRequestActions
        apiBase={`/api/donor/orgs/${encodeURIComponent(org.slug)}`}
        orgName={org.name}
        needsApproval={org.donorErasureNeedsApproval}
        pendingSince={pendingSince ? pendingSince.toISOString() : null}
      />
    </AccountSection>
  );
}

export default DataRequests;
