import type { CSSProperties } from "react";
import Head from "next/head";
import { DonateForm } from "@/components/donate/donate-form";
import { GiftNotice } from "@/components/donate/gift-notice";
import { LockIcon, MailIcon } from "@/components/donate/icons";
import { LanguageLinks } from "@/components/donate/language-menu";
import { StartFundraiser } from "@/components/donate/start-fundraiser";
import type { DonateFormCampaign, PaymentConfig } from "@/components/donate/types";
import type { DonateFormAnswer } from "@/components/donate/use-donate-form";
import { I18nProvider } from "@/components/i18n/provider";
import { messagesFor } from "@/lib/i18n/catalog";
import { intlTag, type Locale } from "@/lib/i18n/locales";
import { translator } from "@/lib/i18n/translate";
import { COVER_FEE, currencyDecimals, formatMoney } from "@/lib/money";
import { campaignLimits } from "@/components/donate/donate-schema";
import { TestModeBannerView } from "../../../../test-mode-banner-view";
import { OrgBarView } from "../../org-bar-view";
import type { PageLanguage } from "../../site";
import type { Closure, PublicView } from "./campaign-data";
import { NotFoundCard } from "../not-found-card";
import { DonateFooter } from "./footer";
import { CampaignHero } from "./hero";
import { ClosedNotice, MatchingBanner } from "./notices";
import { DonorsPanel, LeadersPanel, PagesPanel, SharePanel, StoryPanel, hasStory } from "./panels";
import { Progress, Supporters } from "./progress";
import styles from "./page.module.css";

/** The donate page's script: the form's live figures, its steppers and toggles, keeping the totals fresh (public/donate-page.js). */
export const DONATE_PAGE_SCRIPT = "/donate-page.js";

/** What every render of the donate page's document knows: its language, nonce and mode. */
type DocumentModel = {
  locale: Locale;
  langParam: Locale | null;
  sandbox: boolean;
  /** The organization's own page: the site's root on its custom domain. */
  orgHome: string;
};

/** The donate page's data, plain values only (what getServerSideProps hands the page). */
export type DonatePageModel = DocumentModel & {
  org: { slug: string; name: string; legalName: string | null; taxId: string | null; logoUrl: string | null; currency: string };
  brand: Record<string, string>;
  /** The page's own path as the browser shows it (custom domains have theirs), and its query. */
  path: string;
  search: string;
  view: PublicView;
  closure: Closure;
  now: number;
  supporters: number;
  parent: { title: string; href: string } | null;
  formCampaign: DonateFormCampaign;
  payment: PaymentConfig;
  captcha: { siteKey: string; nonce?: string } | null;
  takesPages: boolean;
  thankYouPath: string;
  meta: {
    title: string;
    description: string;
    canonical: string;
    image: { url: string; alt: string } | null;
    themeColor: string;
    noindex: boolean;
  };
  form: { answer?: DonateFormAnswer; attempt: string; fresh: boolean };
  /** This response's CSP nonce (proxy.ts), which the page's scripts carry like Next.js's own. */
  nonce: string | null;
};

export type DonatePageProps = { page: DonatePageModel } | { notFound: DocumentModel };

/** The form's messages the script words live figures with, as written in the catalog (ICU). */
const LIVE_MESSAGES = {
  form: [
    "frequencyHint",
    "ticketsTotal",
    "orderTotal",
    "counter",
    "messageShown",
    "messageShared",
    "coverFees",
    "coverFeesNoAmount",
    "coverFeesHint",
    "coverFeesHintNoAmount",
    "chooseAmount",
    "chooseTickets",
    "youGive",
    "youPay",
    "matched",
    "matchedBy",
    "matchedGeneric",
  ],
  giftNotice: ["gave", "got", "thanks", "again"],
} as const;

/**
 * What public/donate-page.js needs besides the markup: the page's `Intl` tag and currency, the
 * campaign's amounts and matching, the card fee's terms (lib/money.ts) and its messages. The
 * server stays the judge of every figure: these only keep what the donor reads current as they type.
 */
function scriptData(m: DonatePageModel) {
  const catalog = messagesFor(m.locale, ["donate"]).donate;
  const c = m.formCampaign;
  return {
    locale: intlTag(m.locale),
    currency: m.org.currency.toUpperCase(),
    decimals: currencyDecimals(m.org.currency),
    org: m.org.name,
    fee: COVER_FEE,
    campaign: {
      id: c.id,
      type: c.type,
      minCents: campaignLimits(c).minCents,
      ticketPriceCents: c.ticketPriceCents,
      matchingEnabled: c.matchingEnabled,
      matchingRatioPct: c.matchingRatioPct,
      matchingOrgName: c.matchingOrgName,
      showDonorRoll: c.showDonorRoll,
    },
    messages: Object.fromEntries(
      Object.entries(LIVE_MESSAGES).flatMap(([group, keys]) =>
        keys.map((key) => [`${group}.${key}`, (catalog[group as keyof typeof catalog] as Record<string, string>)[key]]),
      ),
    ),
  };
}

/** JSON safe inside a script element: nothing in it can close the element or open a comment. */
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");

function languageOf(m: DocumentModel): PageLanguage {
  return { locale: m.locale, langParam: m.langParam, tag: intlTag(m.locale), t: translator(m.locale, "donate") };
}

/**
 * The hosted donate page (public): the campaign, its progress and the donate form, rendered on
 * the server, with no framework in the browser; its one script (DONATE_PAGE_SCRIPT) brings the
 * form to life, and the form posts to the page itself (post-gift.ts). What the App Router's frame
 * gives its other pages (the root layout's test-mode banner, the donate layout's organization bar,
 * brand colours and footer) it draws itself, from the same components.
 */
export function DonatePage(props: DonatePageProps) {
  const doc = "page" in props ? props.page : props.notFound;
  const lang = languageOf(doc);
  return (
    <I18nProvider locale={doc.locale} langParam={doc.langParam} messages={messagesFor(doc.locale, ["common", "donate"])}>
      {doc.sandbox ? <TestModeBannerView t={translator(doc.locale, "common")} /> : null}
      {"page" in props ? <CampaignPage m={props.page} lang={lang} /> : <CampaignNotFound m={props.notFound} lang={lang} />}
    </I18nProvider>
  );
}

/** Unknown organization, unknown campaign, or a campaign that is still a draft: on to the organization's page. */
function CampaignNotFound({ m, lang }: { m: DocumentModel; lang: PageLanguage }) {
  const { t } = lang;
  return (
    <div className={styles.shell}>
      <Head>
        <title>{t("meta.campaignNotFound")}</title>
        <meta name="robots" content="noindex" />
      </Head>
      <NotFoundCard
        title={t("notFound.title")}
        body={t("notFound.body")}
        home={(className) => (
          <a className={className} href={m.orgHome}>
            {t("notFound.home")}
          </a>
        )}
      />
    </div>
  );
}

function PageHead({ m }: { m: DonatePageModel }) {
  const { meta } = m;
  return (
    <Head>
      <title>{meta.title}</title>
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="theme-color" content={meta.themeColor} />
      <meta name="description" content={meta.description} />
      <link rel="canonical" href={meta.canonical} />
      {meta.noindex && <meta name="robots" content="noindex, nofollow" />}
      <meta property="og:type" content="website" />
      <meta property="og:url" content={meta.canonical} />
      <meta property="og:site_name" content={m.org.name} />
      <meta property="og:title" content={m.view.campaign.title} />
      <meta property="og:description" content={meta.description} />
      {meta.image && <meta property="og:image" content={meta.image.url} />}
      {meta.image && <meta property="og:image:alt" content={meta.image.alt} />}
      <meta name="twitter:card" content={meta.image ? "summary_large_image" : "summary"} />
      <meta name="twitter:title" content={m.view.campaign.title} />
      <meta name="twitter:description" content={meta.description} />
      {meta.image && <meta name="twitter:image" content={meta.image.url} />}
      <link rel="icon" href="/favicon.ico" sizes="any" />
      <link rel="icon" href="/icon.png" type="image/png" />
      <link rel="apple-touch-icon" href="/apple-icon.png" />
    </Head>
  );
}

function CampaignPage({ m, lang }: { m: DonatePageModel; lang: PageLanguage }) {
  const { view, org, closure, now } = m;
  const c = view.campaign;
  const { t } = lang;
  const money = (cents: number, short = false) => formatMoney(cents, org.currency, { short, locale: lang.tag });
  const timeZone = view.organization.timeZone;

  return (
    <div className={styles.shell} style={m.brand as CSSProperties} data-donate-brand="">
      <PageHead m={m} />
      <a className={styles.skip} href="#main">
        {t("site.skip")}
      </a>
      <OrgBarView org={org} t={t} />
      <main id="main" className={styles.main}>
        <div className={styles.header}>
          <CampaignHero c={c} parent={m.parent} lang={lang} timeZone={timeZone} />
        </div>

        <section className={styles.donate} id="donate" aria-labelledby="donate-heading">
          {!closure && <GiftNotice campaignId={c.id} formAreaId="donate" />}
          <div className={styles.card}>
            {view.progress && (
              <div className={styles.cardTop} id="donate-progress" data-fresh="">
                <Progress progress={view.progress} money={money} lang={lang} />
                <Supporters count={m.supporters} roll={view.donorRoll} lang={lang} />
              </div>
            )}
            {c.matchingEnabled && (
              <div id="donate-matching" data-fresh="">
                <MatchingBanner c={c} progress={view.progress} money={money} lang={lang} />
              </div>
            )}
            {closure ? (
              <ClosedNotice closure={closure} view={view} orgName={org.name} now={now} lang={lang} />
            ) : (
              <>
                <h2 id="donate-heading" className={styles.cardHeading}>
                  {t("page.formHeading", { type: c.type })}
                </h2>
                <DonateForm
                  campaign={m.formCampaign}
                  organizationName={org.name}
                  currency={org.currency}
                  payment={m.payment}
                  thankYouPath={m.thankYouPath}
                  captcha={m.captcha}
                  posted={m.form}
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

        {m.takesPages && (
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
          <div className={styles.social} id="donate-social" data-fresh="">
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
              <DonorsPanel c={c} roll={view.donorRoll} open={!closure} money={money} now={now} lang={lang} timeZone={timeZone} />
            )}
            {closure !== "ended" && <SharePanel c={c} orgName={org.name} lang={lang} />}
          </div>
        )}
      </main>
      <DonateFooter org={org} t={t}>
        <LanguageLinks path={m.path} search={m.search} />
      </DonateFooter>
      {!closure && (
        // Data, not code (the browser runs no script of this type): what the page's script words and computes the form's live figures with.
        <script
          type="application/json"
          id="donate-page-data"
          nonce={m.nonce ?? undefined}
          dangerouslySetInnerHTML={{ __html: jsonForScript(scriptData(m)) }}
        />
      )}
      <script src={DONATE_PAGE_SCRIPT} defer nonce={m.nonce ?? undefined} />
    </div>
  );
}
