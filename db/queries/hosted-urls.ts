import { and, asc, desc, eq, gt, isNull, ne, or } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, organizations, type Campaign, type Organization } from "@/db/schema";

/**
 * The organization whose VERIFIED custom domain is `host` (lower case, no port), or null. Several
 * organizations may claim a domain while it is PENDING; a unique index lets one have it VERIFIED.
 */
export async function findOrgByVerifiedDomain(db: DbOrTx, host: string): Promise<Pick<Organization, "id" | "slug"> | null> {
  const [org] = await db
    .select({ id: organizations.id, slug: organizations.slug })
    .from(organizations)
    .where(and(eq(organizations.customDomain, host), eq(organizations.customDomainStatus, "VERIFIED")))
    .limit(1);
  return org ?? null;
}

/**
 * The organizations with a published (not DRAFT) campaign of this slug, for the short URL
 * `{APP_URL}/donate/{slug}`: up to two, enough to tell "exactly one" from "several".
 */
export async function findShortUrlOrgs(
  db: DbOrTx,
  slug: string,
): Promise<Pick<Organization, "slug" | "customDomain" | "customDomainStatus">[]> {
  return db
    .selectDistinct({
      slug: organizations.slug,
      customDomain: organizations.customDomain,
      customDomainStatus: organizations.customDomainStatus,
    })
    .from(campaigns)
    .innerJoin(organizations, eq(organizations.id, campaigns.orgId))
    .where(and(eq(campaigns.slug, slug), ne(campaigns.status, "DRAFT")))
    .limit(2);
}

/** An organization by slug, or null. */
export async function findOrgBySlug(db: DbOrTx, slug: string): Promise<Organization | null> {
  const [org] = await db.select().from(organizations).where(eq(organizations.slug, slug)).limit(1);
  return org ?? null;
}

/**
 * The campaigns an organization's landing page lists: ACTIVE, not past their end date, and not a
 * supporter's peer-to-peer page (those are reached from their parent's leaderboard). Those
 * ending soonest first, then the newest.
 */
export async function listLandingCampaigns(db: DbOrTx, orgId: string, now = new Date()): Promise<Campaign[]> {
  return db
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.orgId, orgId),
        eq(campaigns.status, "ACTIVE"),
        isNull(campaigns.parentCampaignId),
        or(isNull(campaigns.endDate), gt(campaigns.endDate, now)),
      ),
    )
    .orderBy(asc(campaigns.endDate), desc(campaigns.createdAt), desc(campaigns.id))
    .limit(60);
}

/** An organization's `defaultLocale` by slug, or null when there is no such organization. */
export async function findOrgDefaultLocale(db: DbOrTx, slug: string): Promise<string | null> {
  const [row] = await db
    .select({ defaultLocale: organizations.defaultLocale })
    .from(organizations)
    .where(eq(organizations.slug, slug))
    .limit(1);
  return row?.defaultLocale ?? null;
}
