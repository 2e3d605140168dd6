import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AccountSection } from "@/components/account/account-section";
import QRCode from "qrcode";
import { DataRequests } from "@/components/account/data-requests";
import { Fundraisers } from "@/components/account/fundraisers";
import { listPageGifts, listSupporterPages } from "@/db/queries/fundraisers";
import { serializeFundraiserGift, serializeFundraiserPage } from "@/lib/schemas/fundraisers";
import { Gifts } from "@/components/account/gifts";
import { Plans } from "@/components/account/plans";
import { SignInRequest } from "@/components/account/sign-in-request";
import { SignOutButton } from "@/components/account/sign-out-button";
import { Statements } from "@/components/account/statements";
import styles from "@/components/account/account.module.css";
import { getDb } from "@/db";
import { listDonorDonations, listDonorGiftYears } from "@/db/queries/donor-account";
import { findPendingErasureRequest } from "@/db/queries/donor-requests";
import { listRecurringPlansOfDonor } from "@/db/queries/recurring-plans";
import { withLang } from "@/lib/i18n/href";
import { getLangParam, getRequestLocale, getTranslations } from "@/lib/i18n/request";
import { translator } from "@/lib/i18n/translate";
import { serializeDonorDonation, serializeDonorRecurringPlan } from "@/lib/schemas/donor-account";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { orgBasePath } from "../site";
import { loadAccountOrg, signedInDonor } from "./data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string }> };

/** How many gifts the page lists (newest first); the donor API pages through all of them. */
const GIFTS_SHOWN = 100;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const org = await loadAccountOrg((await params).orgSlug);
  const t = await getTranslations("account");
  return { title: { absolute: org ? t("meta.accountTitle", { orgName: org.name }) : t("meta.accountTitleBare") } };
}

/**
 * GET /o/:orgSlug/account (and `/account` on the organization's custom domain): the donor's
 * account, in the request's language. Signed out: the form that emails a sign-in link. Signed in
 * (the organization's donor cookie): their gifts with receipts, recurring gifts, year-end
 * statements and their data.
 */
export default async function AccountPage({ params }: Props) {
  const org = await loadAccountOrg((await params).orgSlug);
  if (!org) notFound();
  const [donor, base, locale, langParam] = await Promise.all([
    signedInDonor(org),
    orgBasePath(org.slug),
    getRequestLocale(),
    getLangParam(),
  ]);
  const t = translator(locale, "account");

  if (!donor) {
    return (
      <main id="main" className={styles.main} tabIndex={-1}>
        <div>
          <h1 className={styles.title}>{t("overview.title")}</h1>
          <p className={styles.lead}>{t("overview.lead", { orgName: org.name })}</p>
        </div>
        <AccountSection id="sign-in-title" title={t("overview.signInTitle")}>
          <SignInRequest orgSlug={org.slug} orgName={org.name} />
        </AccountSection>
        <p className={styles.muted}>
          {t.rich("overview.notGivenYet", {
            orgName: org.name,
            link: (chunks) => <Link href={withLang(base || "/", langParam)}>{chunks}</Link>,
          })}
        </p>
      </main>
    );
  }

  const db = await getDb();
  const [gifts, plans, years, pending, supporterPages] = await Promise.all([
    listDonorDonations(db, org.id, donor.id, { page: 1, limit: GIFTS_SHOWN }),
    listRecurringPlansOfDonor(db, donor.id),
    listDonorGiftYears(db, org.id, donor.id),
    findPendingErasureRequest(db, donor.id),
    listSupporterPages(db, org.id, donor.id),
  ]);
  const baseUrl = donateBaseUrl(org);
  // The supporter's own fundraiser pages: their share links' QR codes, and the gifts they received.
  const fundraiserPages = supporterPages.map((p) => serializeFundraiserPage(p, baseUrl));
  const [qrCodes, received] =
    fundraiserPages.length > 0
      ? await Promise.all([
          Promise.all(
            fundraiserPages.map(
              async (p) => [p.id, await QRCode.toString(p.pageUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" })] as const,
            ),
          ),
          listPageGifts(
            db,
            fundraiserPages.map((p) => p.id),
            { page: 1, limit: GIFTS_SHOWN },
          ),
        ])
      : [[], { rows: [], total: 0 }];
  const name = donor.firstName?.trim();
  return (
    <main id="main" className={styles.main} tabIndex={-1}>
      <div className={styles.header}>
        <div>
          <h1 className={styles.title}>{name ? t("overview.welcome", { name }) : t("overview.title")}</h1>
          <p className={styles.lead}>
            {t.rich("overview.signedInAs", {
              email: donor.email ?? "",
              orgName: org.name,
              strong: (chunks) => <strong>{chunks}</strong>,
            })}
          </p>
        </div>
        <SignOutButton orgSlug={org.slug} />
      </div>
      {fundraiserPages.length > 0 && (
        <Fundraisers
          pages={fundraiserPages}
          qr={Object.fromEntries(qrCodes)}
          gifts={received.rows.map(serializeFundraiserGift)}
          currency={org.currency}
          locale={locale}
        />
      )}
      <Gifts
        gifts={gifts.rows.map((r) => serializeDonorDonation(r, baseUrl, org.slug))}
        total={gifts.total}
        locale={locale}
        langParam={langParam}
        timeZone={org.timeZone}
      />
      <Plans orgSlug={org.slug} plans={plans.map(serializeDonorRecurringPlan)} locale={locale} timeZone={org.timeZone} />
      <Statements orgSlug={org.slug} years={years} locale={locale} />
      <DataRequests org={org} pendingSince={pending ? pending.createdAt : null} locale={locale} />
    </main>
  );
}
