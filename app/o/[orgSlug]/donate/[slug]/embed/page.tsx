import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { DonateForm } from "@/components/donate/donate-form";
import { EmbedBridge } from "@/components/donate/embed-bridge";
import { FreshOnReturn } from "@/components/donate/fresh-on-return";
import { GiftNotice } from "@/components/donate/gift-notice";
import { LockIcon } from "@/components/donate/icons";
import { formatMoney } from "@/lib/money";
import { orgBasePath, pageLanguage } from "../../../site";
import {
  captchaConfig,
  closureOf,
  donateFormCampaign,
  loadView,
  paymentConfig,
  renderId,
  requestNow,
  type DonatePageParams,
} from "../data";
import { ClosedNotice, MatchingBanner } from "../notices";
import { Progress } from "../progress";
import styles from "./embed.module.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<DonatePageParams> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { orgSlug, slug } = await params;
  const data = await loadView(orgSlug, slug);
  const { t } = await pageLanguage();
  return {
    title: { absolute: data ? t("meta.embedTitle", { campaign: data.campaign.title, org: data.org.name }) : t("meta.campaignNotFound") },
    robots: { index: false, follow: false },
  };
}

/**
 * GET /o/:orgSlug/donate/:slug/embed: the embeddable donate form (public), the one page any site
 * may frame (lib/security/frameable-routes.ts). The donate page's form without its hero, story
 * or donor roll; the payment and the thank-you page stay inside the frame, which it keeps sized
 * to its content by postMessage.
 */
export default async function EmbedPage({ params }: Props) {
  const { orgSlug, slug } = await params;
  const data = await loadView(orgSlug, slug);
  if (!data) notFound();
  const { campaign, org, view } = data;
  const c = view.campaign;
  const lang = await pageLanguage();
  const { t, tag } = lang;
  const money = (minor: number, short = false) => formatMoney(minor, org.currency, { short, locale: tag });
  const payment = paymentConfig();
  const now = requestNow();
  const closure = closureOf({ campaign, org }, payment, now);
  const captcha = closure ? null : captchaConfig((await headers()).get("x-nonce"));
  const formCampaign = donateFormCampaign(c, org);

  const action = t("page.formHeading", { type: c.type });

  return (
    <main id="main" className={styles.main}>
      <EmbedBridge />
      <FreshOnReturn renderId={renderId()} />
      <section className={styles.card} id="donate" aria-labelledby="donate-heading">
        <div className={styles.intro}>
          <h1 id="donate-heading" className={styles.heading}>
            {c.title}
          </h1>
          <p className={styles.org}>{t("page.embedIntro", { action, org: org.name })}</p>
        </div>
        {!closure && <GiftNotice campaignId={c.id} formAreaId="donate" />}
        {view.progress && <Progress progress={view.progress} money={money} lang={lang} />}
        {c.matchingEnabled && <MatchingBanner c={c} progress={view.progress} money={money} lang={lang} />}
        {closure ? (
          <ClosedNotice closure={closure} view={view} orgName={org.name} now={now} lang={lang} />
        ) : (
          <DonateForm
            campaign={formCampaign}
            organizationName={org.name}
            currency={org.currency}
            payment={payment}
            thankYouPath={`${await orgBasePath(org.slug)}/donate/${c.slug}/embed/thank-you`}
            captcha={captcha}
          />
        )}
        {!closure && (
          <p className={styles.secure}>
            <LockIcon /> {t("page.embedSecure")}
          </p>
        )}
      </section>
      <p className="sr-only">{t("page.embedAbout", { org: org.name })}</p>
    </main>
  );
}
