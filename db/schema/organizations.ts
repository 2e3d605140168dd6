import { sql } from "drizzle-orm";
import { boolean, index, pgEnum, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamps, timestamptz } from "./columns";
import { roleEnum, users } from "./auth";

export const orgStatusEnum = pgEnum("org_status", ["ONBOARDING", "ACTIVE"]);
/** A custom domain is served only once its DNS proves the organization controls it (a TXT record). */
export const customDomainStatusEnum = pgEnum("custom_domain_status", ["PENDING", "VERIFIED"]);

/** What receipts say and which fields the donate form asks for: US (default), CA (CRA official receipts), UK (Gift Aid) or GENERIC. */
export const receiptProfileEnum = pgEnum("receipt_profile", ["US", "CA", "UK", "GENERIC"]);
export type ReceiptProfile = (typeof receiptProfileEnum.enumValues)[number];

export const organizations = pgTable(
  "organizations",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    slug: text().notNull(),
    status: orgStatusEnum().notNull().default("ONBOARDING"),
    notificationEmail: text(),
    processorAccountId: text(),
    chargesEnabled: boolean().notNull().default(false),
    payoutsEnabled: boolean().notNull().default(false),
    customDomain: text(),
    /** Null exactly when there is no custom domain. */
    customDomainStatus: customDomainStatusEnum(),
    /** The value the domain's `_goodfund.` TXT record must hold; new for every domain set. Not a secret: it proves DNS control. */
    customDomainToken: text(),
    customDomainVerifiedAt: timestamptz(),
    legalName: text(),
    taxId: text(),
    logoUrl: text(),
    color: text(),
    currency: text().notNull().default("usd"),
    /** Postal address printed on year-end statements. */
    address: text(),
    /** The tax-deductibility text printed at the foot of receipts and year-end statements. */
    receiptStatement: text(),
    receiptProfile: receiptProfileEnum().notNull().default("US"),
    /** The name printed on official receipts as the individual authorized to sign them (CA). */
    receiptSignatory: text(),
    /** Language of donor pages and emails when neither `?lang=` nor Accept-Language decides (en, es, fr, de). */
    defaultLocale: text().notNull().default("en"),
    /** IANA time zone its dates are shown in and its reports' days start at (lib/time-zone.ts). */
    timeZone: text().notNull().default("UTC"),
    /** When on, a donor's own erasure request waits for staff approval instead of running at once. */
    donorErasureNeedsApproval: boolean().notNull().default(false),
    /** When on, a person's session must have passed a second factor to use this organization (API keys are unaffected). */
    requireTwoFactor: boolean().notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("organizations_slug_key").on(t.slug),
    uniqueIndex("organizations_processor_account_key").on(t.processorAccountId),
    // Stored lower case (lib/schemas/organizations.ts). Several organizations may claim a domain,
    // but only one can have it VERIFIED (served); the index also finds a host's organization.
    uniqueIndex("organizations_custom_domain_key")
      .on(t.customDomain)
      .where(sql`${t.customDomainStatus} = 'VERIFIED'`),
  ],
);

export const memberships = pgTable(
  "memberships",
  {
    orgId: belongsTo(() => organizations.id),
    userId: belongsTo(() => users.id),
    role: roleEnum().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), index().on(t.userId)],
);

export type Organization = typeof organizations.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
