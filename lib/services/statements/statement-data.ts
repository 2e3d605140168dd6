import { DEFAULT_TIME_ZONE, midnightOf } from "@/lib/time-zone";
import { and, asc, eq, gte, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { campaigns, donations, donors, type Organization } from "@/db/schema";
import { emailLocale } from "@/lib/email/locale";
import type { Locale } from "@/lib/i18n/locales";

/**
 * One gift on a year-end statement, as the donor paid it (the receipt's amount: the gift plus any
 * fees they covered), with its receipt's number and deductible amount (the gift less the value
 * the donor received, as the receipt states it).
 */
export type StatementGift = {
  donationId: string;
  date: Date;
  campaignTitle: string;
  amountCents: number;
  currency: string;
  receiptNumber: string | null;
  deductibleCents: number;
};

/** Everything a year-end statement shows; the PDF is a pure function of it. */
export type StatementData = {
  org: {
    slug: string;
    name: string;
    legalName: string | null;
    taxId: string | null;
    address: string | null;
    receiptStatement: string | null;
    /** Its time zone: the year's bounds and the gifts' dates are in it. */
    timeZone: string;
  };
  /** `email` is null for a donor recorded without one (an offline gift): their statement is downloaded, not emailed. */
  donor: { id: string; firstName: string | null; lastName: string | null; email: string | null };
  year: number;
  gifts: StatementGift[];
  /** Sum of the gifts (and of their deductible amounts) per currency, in the order the currencies first appear. */
  totals: { currency: string; amountCents: number; deductibleCents: number }[];
  /** The language it is written in: the donor's (that of their last gift), else the organization's default. */
  locale: Locale;
};

/** The UTC bounds of a calendar year: [1 January, next 1 January). */
/** The calendar year in the organization's time zone: from its New Year's midnight to the next. */
export function yearBounds(year: number, timeZone: string = DEFAULT_TIME_ZONE): { from: Date; to: Date } {
  return { from: new Date(midnightOf(timeZone, `${year}-01-01`)), to: new Date(midnightOf(timeZone, `${year + 1}-01-01`)) };
}

/**
 * The gifts a statement counts: SUCCEEDED in that year of the organization's time zone (first gifts and recurring renewals
 * alike). A refunded gift is REFUNDED, a lost dispute ends REFUNDED and an open one is DISPUTED,
 * so none of those count; a dispute won goes back to SUCCEEDED and counts again.
 */
export function includedGiftsWhere(orgId: string, year: number, timeZone: string = DEFAULT_TIME_ZONE) {
  const { from, to } = yearBounds(year, timeZone);
  return and(
    eq(donations.orgId, orgId),
    eq(donations.status, "SUCCEEDED"),
    gte(donations.succeededAt, from),
    lt(donations.succeededAt, to),
  );
}

/** The organization's donors (not erased, with an email) with at least one counted gift in the year, by ID. */
export async function listStatementDonorIds(db: DbOrTx, orgId: string, year: number, timeZone: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: donations.donorId })
    .from(donations)
    .innerJoin(donors, eq(donors.id, donations.donorId))
    // A donor without email (an offline gift) has nowhere to be sent a statement.
    .where(and(includedGiftsWhere(orgId, year, timeZone), isNull(donors.erasedAt), isNotNull(donors.email)))
    .orderBy(asc(donations.donorId));
  return rows.map((r) => r.id);
}

type OrgFields = Pick<Organization, "id" | "slug" | "name" | "legalName" | "taxId" | "address" | "receiptStatement"> &
  Partial<Pick<Organization, "defaultLocale" | "timeZone">>;

/**
 * One donor's statement for a year, or null when the donor (of this organization, not erased)
 * has no counted gift that year. Gifts are ordered by time, then ID, so the same data gives the
 * same statement.
 */
export async function loadStatement(db: DbOrTx, org: OrgFields, donorId: string, year: number): Promise<StatementData | null> {
  const [found] = await db
    .select({ id: donors.id, firstName: donors.firstName, lastName: donors.lastName, email: donors.email, locale: donors.locale })
    .from(donors)
    .where(and(eq(donors.id, donorId), eq(donors.orgId, org.id), isNull(donors.erasedAt)));
  if (!found) return null;
  const { locale, ...donor } = found;
  const rows = await db
    .select({
      donationId: donations.id,
      date: donations.succeededAt,
      campaignTitle: campaigns.title,
      amountCents: sql<number>`${donations.amount} + ${donations.feeCents}`.mapWith(Number),
      currency: donations.currency,
      receiptNumber: donations.receiptNumber,
      deductibleCents: sql<number>`greatest(0, ${donations.amount} - ${donations.advantageCents})`.mapWith(Number),
    })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.id, donations.campaignId))
    .where(and(includedGiftsWhere(org.id, year, org.timeZone), eq(donations.donorId, donor.id)))
    .orderBy(asc(donations.succeededAt), asc(donations.id));
  if (rows.length === 0) return null;
  const gifts = rows.map((r) => ({ ...r, date: r.date! }));
  const totals = new Map<string, { amountCents: number; deductibleCents: number }>();
  for (const g of gifts) {
    const t = totals.get(g.currency) ?? { amountCents: 0, deductibleCents: 0 };
    totals.set(g.currency, { amountCents: t.amountCents + g.amountCents, deductibleCents: t.deductibleCents + g.deductibleCents });
  }
  return {
    org: {
      slug: org.slug,
      name: org.name,
      legalName: org.legalName,
      taxId: org.taxId,
      address: org.address,
      receiptStatement: org.receiptStatement,
      timeZone: org.timeZone ?? DEFAULT_TIME_ZONE,
    },
    donor,
    year,
    gifts,
    totals: [...totals].map(([currency, t]) => ({ currency, ...t })),
    locale: emailLocale(locale, org.defaultLocale),
  };
}
