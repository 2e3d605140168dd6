import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { FreshOnReturn } from "@/components/donate/fresh-on-return";
import { withLang } from "@/lib/i18n/href";
import { orgBasePath, pageLanguage } from "../../../site";
import { findDonation, loadCampaign, paymentConfig, renderId, type DonatePageParams } from "../data";
import { PayNotice, PayStep } from "./pay-step";
import styles from "../page.module.css";

export const dynamic = "force-dynamic";

type Props = {
  params: Promise<DonatePageParams>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { orgSlug, slug } = await params;
  const row = await loadCampaign(orgSlug, slug);
  const { t } = await pageLanguage();
  return {
    title: { absolute: row ? t("meta.paymentTitle", { campaign: row.campaign.title, org: row.org.name }) : t("meta.campaignNotFound") },
    robots: { index: false, follow: false },
  };
}

// Paid, then perhaps refunded or disputed: the thank-you page says where the gift stands.
const PAID = ["SUCCEEDED", "REFUNDED", "DISPUTED"];

/**
 * GET /o/:orgSlug/donate/:slug/pay?donation=:id#:clientSecret: the card for a donation the donate
 * form started (public). The client secret travels in the fragment, which browsers never send,
 * so it stays out of the server's logs; the page only works for the browser that has it. An
 * unknown donation, or another campaign's, is not found (./not-found.tsx, a 404: the page has
 * no loading boundary above it, so its status is decided before anything is sent); a paid one goes to the thank-you page; one that can no longer be paid (FAILED: expired or
 * canceled; VOIDED) says so, with the way back to the form.
 */
export default async function PayPage({ params, searchParams }: Props) {
  const { orgSlug, slug } = await params;
  const row = await loadCampaign(orgSlug, slug);
  if (!row) notFound();
  const { campaign, org } = row;
  const sp = await searchParams;
  const donationId = typeof sp.donation === "string" ? sp.donation : null;
  const d = donationId ? await findDonation(donationId, campaign.id) : null;
  if (!donationId || !d) notFound();
  const { t, langParam } = await pageLanguage();
  // On the organization's custom domain, its short paths (`/donate/{slug}`).
  const donatePath = `${await orgBasePath(org.slug)}/donate/${campaign.slug}`;
  const thankYouPath = `${donatePath}/thank-you`;
  if (PAID.includes(d.status)) redirect(withLang(`${thankYouPath}?donation=${encodeURIComponent(donationId)}`, langParam));
  const donateHref = withLang(donatePath, langParam);

  return (
    <main id="main" className={styles.thanks}>
      {/* Back or Forward to this page after paying asks the server again, which sends the donor on to the thank-you page. */}
      <FreshOnReturn renderId={renderId()} />
      <div className={styles.card}>
        {d.status === "PENDING" ? (
          <PayStep
            isEvent={campaign.type === "EVENT"}
            campaignTitle={campaign.title}
            organizationName={org.name}
            currency={d.currency}
            donation={{
              id: donationId,
              chargeAmountCents: d.amount + d.feeCents,
              feeCents: d.feeCents,
              recurringInterval: d.recurringInterval,
              tickets: d.tickets,
            }}
            payment={paymentConfig()}
            thankYouPath={thankYouPath}
            donateHref={donateHref}
            donatePaths={[`/o/${org.slug}/donate/${campaign.slug}`, `/donate/${campaign.slug}`]}
          />
        ) : (
          <PayNotice text={t("payment.canceled")} href={donateHref} />
        )}
      </div>
    </main>
  );
}
