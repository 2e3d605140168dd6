import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { DonateForm } from "@/components/donate/donate-form";
import { formatMoney } from "@/lib/money";
import { FreshOnReturn } from "@/components/donate/fresh-on-return";
import { GiftNotice } from "@/components/donate/gift-notice";
import { StartFundraiser } from "@/components/donate/start-fundraiser";
import { LockIcon, MailIcon } from "@/components/donate/icons";
import { getEnv } from "@/lib/env";
import { withLang } from "@/lib/i18n/href";
import { pageLanguage } from "../../site";
import {
  captchaConfig,
  closureOf,
  donateFormCampaign,
  loadCampaign,
  loadParent,
  loadSupporterCount,
  loadView,
  palette,
  paymentConfig,
  renderId,
  requestNow,
  type DonatePageParams,
} from "./data";
import { CampaignHero } from "./hero";
import { ClosedNotice, MatchingBanner } from "./notices";
import { DonorsPanel, LeadersPanel, PagesPanel, SharePanel, StoryPanel, hasStory } from "./panels";
import { Progress, Supporters } from "./progress";
import styles from "./page.module.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<DonatePageParams> };

const DESCRIPTION_MAX = 200;

function summarize(text: string | null): string | null {
  const flat = text?.replace(/\s+/g, " ").trim();
  if (!flat) return null;
  return flat.length <= DESCRIPTION_MAX ? flat : `${flat.slice(0, DESCRIPTION_MAX - 1).replace(/\s+\S*$/, "")}…`;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { orgSlug, slug } = await params;
  const data = await loadView(orgSlug, slug);
  const { t } = await pageLanguage();
  if (!data) return { title: t("meta.campaignNotFound"), robots: { index: false } };
  const { campaign, org, view, preview } = data;
  const url = view.campaign.donateUrl;
  const description = summarize(campaign.description) ?? t("meta.campaignDescription", { org: org.name, campaign: campaign.title });
  const images = campaign.coverImageUrl
    ? [{ url: campaign.coverImageUrl, alt: t("hero.coverAlt", { campaign: campaign.title }) }]
    : undefined;
  return {
    // Resolves a root-relative cover (e.g. the demo's /covers/...) to an absolute Open Graph URL.
    metadataBase: new URL(getEnv().appUrl),
    title: { absolute: `${campaign.title} · ${org.name}` },
    description,
    alternates: { canonical: url },
    openGraph: { type: "website", url, siteName: org.name, title: campaign.title, description, images },
    twitter: { card: images ? "summary_large_image" : "summary", title: campaign.title, description, images: images?.map((i) => i.url) },
    ...(preview ? { robots: { index: false, follow: false } } : {}),
  };
}

export async function generateViewport({ params }: Props): Promise<Viewport> {
  const { orgSlug, slug } = await params;
  const row = await loadCampaign(orgSlug, slug);
  return { width: "device-width", initialScale: 1, ...(row ? { themeColor: palette(row).brand } : {}) };
}

/** GET /o/:orgSlug/donate/:slug: the hosted donate page (public). */
export default async function DonatePage({ params }: Props) {
  const { orgSlug, slug } = await params;
  const data = await loadView(orgSlug, slug);
  if (!data) notFound();
  const { campaign, org, view, light } = data;
  const c = view.campaign;
  const lang = await pageLanguage();
  const { t, tag, langParam } = lang;
  const money = (cents: number, short = false) => formatMoney(cents, org.currency, { short, locale: tag });
  const payment = paymentConfig();
  const now = requestNow();
  const closure = closureOf({ campaign, org }, payment, now);
  // The form's captcha, with the CSP nonce proxy.ts gave this request for the Turnstile script.
  const captcha = closure ? null : captchaConfig((await headers()).get("x-nonce"));
  const parentRow = c.parentCampaignId ? await loadParent(c.parentCampaignId) : null;
  const parent =
    parentRow && parentRow.campaign.id !== c.id
      ? { title: parentRow.campaign.title, href: withLang(`/o/${parentRow.org.slug}/donate/${parentRow.campaign.slug}`, langParam) }
      : null;
  // How many people have given, beside the totals: an aggregate, so only when those are public
  // (and not under overload, where the page leaves out its costly sections).
  const supporters = view.progress && !light ? await loadSupporterCount(c.id) : 0;

  const formCampaign = donateFormCampaign(c, org);
  // A peer-to-peer parent taking supporters' pages offers "Start a fundraiser" and "Join a team".
  const takesPages = c.type === "PEER_TO_PEER" && !c.parentCampaignId && c.allowSupporterPages && c.status === "ACTIVE" && !light;

  const formHeading = t("page.formHeading", { type: c.type });

  return (
    <main id="main" className={styles.main}>
      {/* A new ID each server render: the page knows when the browser shows an old one again. */}
      <FreshOnReturn renderId={renderId()} />
      <div className={styles.header}>
        <CampaignHero c={c} parent={parent} lang={lang} timeZone={view.organization.timeZone} />
      </div>

      <section className={styles.donate} id="donate" aria-labelledby="donate-heading">
        {!closure && <GiftNotice campaignId={c.id} formAreaId="donate" />}
        <div className={styles.card}>
          {view.progress && (
            <div className={styles.cardTop}>
              <Progress progress={view.progress} money={money} lang={lang} />
              <Supporters count={supporters} roll={view.donorRoll} lang={lang} />
            </div>
          )}
          {c.matchingEnabled && <MatchingBanner c={c} progress={view.progress} money={money} lang={lang} />}
          {closure ? (
            <ClosedNotice closure={closure} view={view} orgName={org.name} now={now} lang={lang} />
          ) : (
            <>
              <h2 id="donate-heading" className={styles.cardHeading}>
                {formHeading}
              </h2>
              <DonateForm
                campaign={formCampaign}
                organizationName={org.name}
                currency={org.currency}
                payment={payment}
                thankYouPath={`/o/${org.slug}/donate/${c.slug}/thank-you`}
                captcha={captcha}
              />
            </>
          )}
        </div>
        {!closure && (
          <ul className={styles.assurances}>
            <li>
              <LockIcon /> {t("page.securePayment")}
            </li>
            <li>
              <MailIcon /> {t("page.emailReceipt")}
            </li>
          </ul>
        )}
      </section>

      {hasStory(c) && (
        <div className={styles.story}>
          <StoryPanel c={c} lang={lang} />
        </div>
      )}

      {takesPages && (
        <section className={styles.story} id="fundraise" aria-labelledby="fundraise-heading">
          <div className={styles.panel}>
            <h2 id="fundraise-heading" className={styles.panelHeading}>
              {t("fundraise.heading")}
            </h2>
            <StartFundraiser
              campaignId={c.id}
              allowTeams={c.allowTeams}
              teams={(view.teams ?? []).map((team) => ({ id: team.id, name: team.name }))}
              currencySymbol={org.currency.toUpperCase()}
            />
          </div>
        </section>
      )}

      {(view.leaderboard || view.donorRoll || closure !== "ended" || view.members?.length || view.teams?.length) && (
        <div className={styles.social}>
          {view.teams && view.teams.length > 0 && (
            <PagesPanel
              id="teams-heading"
              heading={t("fundraise.teamsHeading")}
              entries={view.teams}
              orgSlug={org.slug}
              money={money}
              lang={lang}
            />
          )}
          {view.members && view.members.length > 0 && (
            <PagesPanel
              id="members-heading"
              heading={t("fundraise.membersHeading")}
              entries={view.members}
              orgSlug={org.slug}
              money={money}
              lang={lang}
            />
          )}
          {view.leaderboard && (
            <LeadersPanel c={c} leaders={view.leaderboard} orgName={org.name} orgSlug={org.slug} money={money} lang={lang} />
          )}
          {view.donorRoll && (
            <DonorsPanel
              c={c}
              roll={view.donorRoll}
              open={!closure}
              money={money}
              now={now}
              lang={lang}
              timeZone={view.organization.timeZone}
            />
          )}
          {closure !== "ended" && <SharePanel c={c} orgName={org.name} lang={lang} />}
        </div>
      )}
    </main>
  );
}
