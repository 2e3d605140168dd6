import { and, eq, ne, sql } from "drizzle-orm";
import { dropAllCampaignViews } from "@/lib/cache/public-campaign-view";
import type { z } from "zod";
import type { DbOrTx } from "@/db";
import { isCustomDomainTaken, isUniqueViolation } from "@/db/errors";
import { donations, organizations, type Organization } from "@/db/schema";
import { conflict, type AppError } from "@/lib/errors";
import { clearHostCache } from "@/lib/hosted-urls/custom-domains";
import { clearOrgLocaleCache } from "@/lib/i18n/org-default";
import { newCustomDomainToken } from "@/lib/hosted-urls/domain-token";
import type { updateOrganizationBody } from "@/lib/schemas/organizations";
import { rebuildDailyTotals } from "@/lib/services/donations/daily-totals";
import { changedFields, recordAudit, type AuditContext } from "@/lib/services/audit/record-audit";

/**
 * Updates the editable fields; status and payout fields change only through processor events.
 * The `organization.updated` audit entry (the fields that changed) commits with the update; a
 * change of `requireTwoFactor` is recorded as its own `organization.two_factor_requirement_changed`.
 * The currency changes only before the first donation (any donation row, whatever its status):
 * amounts are stored in the currency's minor units, so a later change would mix currencies in
 * totals and reports. The organization row is locked while that is checked.
 *
 * A new custom domain starts PENDING with a fresh TXT record value and is not served until
 * verified (verify-custom-domain.ts); clearing it clears its status. A domain another
 * organization has VERIFIED is refused (409); one another organization merely claims is accepted,
 * since only the one that proves control of its DNS will have it served.
 */
export async function updateOrganization(
  db: DbOrTx,
  org: Organization,
  patch: z.output<typeof updateOrganizationBody>,
  audit: AuditContext,
): Promise<Organization> {
  if (Object.keys(patch).length === 0) return org;
  try {
    const result = await db.transaction(async (tx) => {
      if (patch.currency !== undefined && patch.currency !== org.currency) {
        await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, org.id)).for("update");
        const [taken] = await tx.select({ currency: donations.currency }).from(donations).where(eq(donations.orgId, org.id)).limit(1);
        if (taken) {
          throw conflict(
            "currency_locked",
            `This organization has taken donations in ${taken.currency.toUpperCase()}; its currency can no longer change`,
          );
        }
      }
      const domainChanged = patch.customDomain !== undefined && patch.customDomain !== org.customDomain;
      if (domainChanged && patch.customDomain) await assertDomainNotServed(tx, patch.customDomain, org.id);
      const domainFields = domainChanged ? customDomainFields(patch.customDomain ?? null) : {};
      const [updated] = await tx
        .update(organizations)
        .set({ ...patch, ...domainFields, updatedAt: sql`now()` })
        .where(eq(organizations.id, org.id))
        .returning();
      // The reports' days start at the new zone's midnights: recount them in this transaction.
      if (patch.timeZone !== undefined && patch.timeZone !== org.timeZone) await rebuildDailyTotals(tx, org.id);
      const { requireTwoFactor, ...changes } = changedFields(org, patch);
      if (requireTwoFactor !== undefined) {
        await recordAudit(tx, audit, {
          orgId: org.id,
          action: "organization.two_factor_requirement_changed",
          target: { type: "organization", id: org.id },
          data: { requireTwoFactor },
        });
      }
      if (Object.keys(changes).length > 0) {
        await recordAudit(tx, audit, {
          orgId: org.id,
          action: "organization.updated",
          target: { type: "organization", id: org.id },
          data: { changes },
        });
      }
      return updated;
    });
    // This process's caches see the change at once; other processes within their 30 s.
    if (patch.defaultLocale !== undefined) clearOrgLocaleCache(org.slug);
    if (patch.customDomain !== undefined) clearHostCache();
    dropAllCampaignViews();
    return result;
  } catch (err) {
    if (isCustomDomainTaken(err)) throw customDomainTaken();
    if (isUniqueViolation(err)) throw conflict("organization_slug_taken", "Organization slug is already taken");
    throw err;
  }
}

/** The columns a newly set custom domain (or none) starts with: PENDING with a fresh record value. */
export function customDomainFields(domain: string | null) {
  return domain
    ? { customDomainStatus: "PENDING" as const, customDomainToken: newCustomDomainToken(), customDomainVerifiedAt: null }
    : { customDomainStatus: null, customDomainToken: null, customDomainVerifiedAt: null };
}

/** 409 when another organization already has `domain` VERIFIED (served): it can't be verified twice. */
export async function assertDomainNotServed(tx: DbOrTx, domain: string, exceptOrgId?: string): Promise<void> {
  const [served] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(
      and(
        eq(organizations.customDomain, domain),
        eq(organizations.customDomainStatus, "VERIFIED"),
        exceptOrgId ? ne(organizations.id, exceptOrgId) : undefined,
      ),
    )
    .limit(1);
  if (served) throw customDomainTaken();
}

/** 409: another organization already serves its pages on this domain. */
export function customDomainTaken(): AppError {
  return conflict("custom_domain_taken", "Another organization already uses this custom domain");
}
