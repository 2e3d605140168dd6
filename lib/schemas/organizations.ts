import { isTimeZone } from "@/lib/time-zone";
import { z } from "zod";

export const RECEIPT_PROFILES = ["US", "CA", "UK", "GENERIC"] as const;
import type { Organization } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { LOCALES } from "@/lib/i18n/locales";
import { email, hexColor, imageUrl, iso, plainText, slugSchema } from "./common";

export const ORG_SLUG = slugSchema(3, 48);
export const ROLES = ["OWNER", "ADMIN", "MEMBER"] as const;

const hostname = z
  .string()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, "Must be a host name like give.example.org")
  .transform((s) => s.toLowerCase());

const orgFields = {
  name: plainText(120, 1),
  slug: ORG_SLUG,
  notificationEmail: email.nullable(),
  legalName: plainText(200).nullable(),
  taxId: plainText(64).nullable(),
  logoUrl: imageUrl.nullable(),
  color: hexColor.nullable(),
  customDomain: hostname.nullable().meta({
    description:
      "A host name of your own (`give.example.org`) to serve the donate pages on. A new domain is PENDING until " +
      "`POST /api/orgs/:idOrSlug/custom-domain/verify` finds the TXT record `customDomainVerification` names; only then is it served and used in `donateBaseUrl`.",
  }),
  defaultLocale: z.enum(LOCALES).meta({
    description:
      "The language of the organization's public pages and donor emails when the donor's browser names none of en, es, fr, de (`?lang=` and `Accept-Language` come first)",
  }),
  timeZone: z
    .string()
    .max(64)
    .refine(isTimeZone, "Must be an IANA time zone name, e.g. America/New_York, Europe/Paris or UTC")
    .meta({
      description:
        "IANA time zone (`America/New_York`; default `UTC`). Campaign and event dates are shown in it on donate pages, in emails and PDFs, " +
        "and the reports' days (and weeks and months) start at its midnights.",
      example: "America/New_York",
    }),
};

/** The organization's currency, its campaigns' and donations'; amounts are integers in its minor unit. */
const currencyField = z
  .string()
  .regex(/^[a-zA-Z]{3}$/, "Must be a three-letter ISO currency code")
  .transform((s) => s.toLowerCase())
  .meta({
    description:
      "ISO 4217 code, lower case (`usd`, `eur`, `jpy`). Every campaign takes donations in it, amounts in its minor unit " +
      "(zero-decimal currencies such as `jpy` and `krw` have none). It can change only until the organization has taken a donation (then 409).",
  });

export const CUSTOM_DOMAIN_STATUSES = ["PENDING", "VERIFIED"] as const;

export const customDomainVerificationSchema = z
  .object({
    type: z.literal("TXT"),
    name: z.string().meta({ description: "The record's name: `_goodfund.{customDomain}`", example: "_goodfund.give.example.org" }),
    value: z
      .string()
      .meta({ description: "The value the record must hold", example: "goodfund-verification=4f9c0d2e8b7a41c6a3e5f1d09b8c7a6e" }),
  })
  .meta({
    id: "CustomDomainVerification",
    description: "The DNS TXT record that proves the organization controls its custom domain; add it, then verify.",
  });

export const createOrganizationBody = z
  .object({
    ...orgFields,
    slug: orgFields.slug.optional(),
    notificationEmail: orgFields.notificationEmail.optional(),
    legalName: orgFields.legalName.optional(),
    taxId: orgFields.taxId.optional(),
    logoUrl: orgFields.logoUrl.optional(),
    color: orgFields.color.optional(),
    customDomain: orgFields.customDomain.optional(),
    defaultLocale: orgFields.defaultLocale.optional(),
    timeZone: orgFields.timeZone.optional(),
    currency: currencyField.optional(),
  })
  .meta({ id: "CreateOrganization" });

/** Settings only an update sets: what year-end statements print, and how donors' erasure requests are handled. */
const settingsFields = {
  address: plainText(500).nullable().meta({ description: "Postal address printed on year-end statements (line breaks kept)" }),
  receiptStatement: plainText(2000).nullable().meta({
    description: "Tax-deductibility text printed at the foot of year-end statements, e.g. that no goods or services were provided",
  }),
  receiptProfile: z.enum(RECEIPT_PROFILES).meta({
    description:
      "What receipts say: US (default; the goods-or-services statement), CA (official receipts for income tax purposes, " +
      "donor address required), UK (Gift Aid declarations) or GENERIC",
  }),
  receiptSignatory: plainText(140).nullable().meta({ description: "Name of the person authorized to sign official receipts (CA)" }),
  donorErasureNeedsApproval: z
    .boolean()
    .meta({ description: "When true, a donor's own erasure request waits for an admin's approval instead of running at once" }),
  requireTwoFactor: z.boolean().meta({
    description:
      "When true, every request to this organization's endpoints made with a session that has not passed a second factor answers 403 " +
      '(`code: "two_factor_required"`); API keys are unaffected. Only an OWNER who has two-factor on, and passed it within 15 minutes, changes it.',
  }),
};

export const updateOrganizationBody = z
  .object({ ...orgFields, ...settingsFields, currency: currencyField })
  .partial()
  .meta({ id: "UpdateOrganization" });

export const organizationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    status: z.enum(["ONBOARDING", "ACTIVE"]),
    notificationEmail: z.string().nullable(),
    processorAccountId: z.string().nullable(),
    chargesEnabled: z.boolean(),
    payoutsEnabled: z.boolean(),
    donateBaseUrl: z.string().meta({
      description: "Where the donate pages are: `https://{customDomain}` once the custom domain is VERIFIED, else `{APP_URL}/o/{slug}`",
    }),
    customDomain: z.string().nullable(),
    customDomainStatus: z
      .enum(CUSTOM_DOMAIN_STATUSES)
      .nullable()
      .meta({ description: "PENDING until the DNS record is verified, then VERIFIED (served); null without a custom domain" }),
    customDomainVerification: customDomainVerificationSchema.nullable(),
    legalName: z.string().nullable(),
    taxId: z.string().nullable(),
    logoUrl: z.string().nullable(),
    color: z.string().nullable(),
    currency: z.string(),
    defaultLocale: z.enum(LOCALES),
    timeZone: z.string().meta({ description: "IANA time zone its dates are shown in and its reports' days start at" }),
    address: z.string().nullable(),
    receiptStatement: z.string().nullable(),
    receiptProfile: z.enum(RECEIPT_PROFILES),
    receiptSignatory: z.string().nullable(),
    donorErasureNeedsApproval: z.boolean(),
    requireTwoFactor: z
      .boolean()
      .meta({ description: "Members must pass a second factor to use the organization (sessions; API keys unaffected)." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Organization" });

export const organizationWithRoleSchema = organizationSchema.extend({ role: z.enum(ROLES) }).meta({ id: "OrganizationMembership" });

/** The custom domain the organization's pages are served on: its domain once VERIFIED, else null. */
export function servedCustomDomain(org: Pick<Organization, "customDomain" | "customDomainStatus">): string | null {
  return org.customDomainStatus === "VERIFIED" ? org.customDomain : null;
}

export function donateBaseUrl(org: Pick<Organization, "slug" | "customDomain" | "customDomainStatus">): string {
  const domain = servedCustomDomain(org);
  return domain ? `https://${domain}` : `${getEnv().appUrl}/o/${org.slug}`;
}

/** The DNS name whose TXT record proves control of `domain`. */
export const verificationRecordName = (domain: string) => `_goodfund.${domain}`;

/** The TXT record to add for the organization's custom domain, or null without one. */
export function customDomainVerification(
  org: Pick<Organization, "customDomain" | "customDomainToken">,
): z.output<typeof customDomainVerificationSchema> | null {
  if (!org.customDomain || !org.customDomainToken) return null;
  return { type: "TXT", name: verificationRecordName(org.customDomain), value: org.customDomainToken };
}

export function serializeOrganization(org: Organization): z.output<typeof organizationSchema> {
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    status: org.status,
    notificationEmail: org.notificationEmail,
    processorAccountId: org.processorAccountId,
    chargesEnabled: org.chargesEnabled,
    payoutsEnabled: org.payoutsEnabled,
    donateBaseUrl: donateBaseUrl(org),
    customDomain: org.customDomain,
    customDomainStatus: org.customDomain ? org.customDomainStatus : null,
    customDomainVerification: customDomainVerification(org),
    legalName: org.legalName,
    taxId: org.taxId,
    logoUrl: org.logoUrl,
    color: org.color,
    currency: org.currency,
    defaultLocale: org.defaultLocale as (typeof LOCALES)[number],
    timeZone: org.timeZone,
    address: org.address,
    receiptStatement: org.receiptStatement,
    receiptProfile: org.receiptProfile,
    receiptSignatory: org.receiptSignatory,
    donorErasureNeedsApproval: org.donorErasureNeedsApproval,
    requireTwoFactor: org.requireTwoFactor,
    createdAt: iso(org.createdAt)!,
    updatedAt: iso(org.updatedAt)!,
  };
}

export const memberSchema = z
  .object({
    userId: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(ROLES),
    createdAt: z.string(),
  })
  .meta({ id: "Member" });

export const addMemberBody = z.object({ email, role: z.enum(ROLES).default("MEMBER") }).meta({ id: "AddMember" });

export const updateMemberBody = z.object({ role: z.enum(ROLES) }).meta({ id: "UpdateMember" });
