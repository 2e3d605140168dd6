import type { CSSProperties } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db";
import { findOrgBySlug, listLandingCampaigns } from "@/db/queries/hosted-urls";
import type { Campaign } from "@/db/schema";
import { brandPalette, brandStyle } from "@/components/donate/brand";
import { formatDate, formatPercent } from "@/components/donate/format";
import { LanguageMenu } from "@/components/donate/language-menu";
import { withLang } from "@/lib/i18n/href";
import { formatMoney } from "@/lib/money";
import { SLUG_PATTERN } from "@/lib/slug";
import { OrgBar } from "./org-bar";
import { orgBasePath, pageLanguage, type PageLanguage } from "./site";
import shell from "./donate/[slug]/page.module.css";
import styles from "./landing.module.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string }> };

const loadOrg = cache(async (slug: string) => (slug.length <= 48 && SLUG_PATTERN.test(slug) ? findOrgBySlug(await getDb(), slug) : null));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const org = await loadOrg((await params).orgSlug);
  const { t } = await pageLanguage();
  if (!org) return { title: t("meta.orgNotFound"), robots: { index: false } };
  return { title: { absolute: t("meta.orgTitle", { org: org.name }) }, description: t("meta.orgDescription", { org: org.name }) };
}

const strong = (chunks: React.ReactNode) => <strong>{chunks}</strong>;

const SUMMARY_MAX = 160;

function summary(text: string | null): string | null {
  const flat = text?.replace(/\s+/g, " ").trim();
  if (!flat) return null;
  return flat.length <= SUMMARY_MAX ? flat : `${flat.slice(0, SUMMARY_MAX - 1).replace(/\s+\S*$/, "")}…`;
}

/** A campaign's card: its cover, what it is for, how far along (when its totals are public) and the way to give. */
function CampaignCard({
  c,
  href,
  currency,
  timeZone,
  lang,
}: {
  c: Campaign;
  href: string;
  currency: string;
  /** The organization's time zone, the end date's. */
  timeZone: string;
  lang: PageLanguage;
}) {
  const { t, tag } = lang;
  const money = (minor: number) => formatMoney(minor, currency, { short: true, locale: tag });
  const text = summary(c.description);
  const goal = c.showGoal && c.goalAmountCents ? c.goalAmountCents : null;
  const pct = goal ? Math.floor((c.raisedAmountCents / goal) * 100) : null;
  const titleId = `campaign-${c.id}`;
  return (
    <li className={styles.card}>
      <article aria-labelledby={titleId} className={styles.cardBody}>
        {c.coverImageUrl ? (
          <img className={styles.cover} src={c.coverImageUrl} alt="" loading="lazy" />
        ) : (
          <div className={styles.coverBlank} aria-hidden="true" />
        )}
        <div className={styles.cardText}>
          <h2 id={titleId} className={styles.cardTitle}>
            {c.title}
          </h2>
          {text && <p className={styles.cardSummary}>{text}</p>}
          {c.showGoal && (
            <div className={styles.progress}>
              <p className={styles.raised}>
                {goal
                  ? t.rich("landing.raisedOf", { raised: money(c.raisedAmountCents), goal: money(goal), strong })
                  : t.rich("landing.raised", { raised: money(c.raisedAmountCents), strong })}
              </p>
              {goal && pct !== null && (
                <div
                  className={styles.bar}
                  role="progressbar"
                  aria-label={t("landing.progressLabel", { campaign: c.title })}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.min(100, pct)}
                  aria-valuetext={t("progress.value", { percent: formatPercent(pct, tag), goal: money(goal) })}
                >
                  <div className={styles.barFill} style={{ width: `${Math.min(100, Math.max(0, pct))}%` }} />
                </div>
              )}
              <p className={styles.stats}>
                {goal && pct !== null && (
                  <span>{t.rich("progress.funded", { percent: formatPercent(pct, tag), strong: (chunks) => chunks })}</span>
                )}
                <span>{t("landing.gifts", { count: c.donationCount })}</span>
              </p>
            </div>
          )}
          {c.endDate && <p className={styles.ends}>{t("landing.ends", { date: formatDate(c.endDate.toISOString(), tag, timeZone) })}</p>}
          <Link className={styles.give} href={href}>
            {t.rich("landing.action", {
              type: c.type,
              campaign: c.title,
              sr: (chunks) => <span className="sr-only">{chunks}</span>,
            })}
          </Link>
          {c.type === "PEER_TO_PEER" && !c.parentCampaignId && c.allowSupporterPages && (
            <Link className={styles.ends} href={`${href}#fundraise`}>
              {t("fundraise.heading")}
              <span className="sr-only"> · {c.title}</span>
            </Link>
          )}
        </div>
      </article>
    </li>
  );
}

/** GET /o/:orgSlug (and `/` on the organization's custom domain): its landing page, listing its open campaigns (public). */
export default async function OrgLandingPage({ params }: Props) {
  const { orgSlug } = await params;
  const org = await loadOrg(orgSlug);
  if (!org) notFound();
  const campaigns = await listLandingCampaigns(await getDb(), org.id);
  const base = await orgBasePath(org.slug);
  const lang = await pageLanguage();
  const { t, langParam } = lang;
  return (
    <div className={shell.shell} style={brandStyle(brandPalette(org.color)) as CSSProperties}>
      <a className={shell.skip} href="#main">
        {t("site.skip")}
      </a>
      <OrgBar org={org} secure={false} />
      <main id="main" className={styles.main}>
        <h1 className={styles.heading}>{t("meta.orgTitle", { org: org.name })}</h1>
        {campaigns.length > 0 ? (
          <>
            <p className={styles.lead}>{t("landing.lead", { org: org.legalName ?? org.name })}</p>
            <ul className={styles.grid}>
              {campaigns.map((c) => (
                <CampaignCard
                  key={c.id}
                  c={c}
                  href={withLang(`${base}/donate/${c.slug}`, langParam)}
                  currency={org.currency}
                  timeZone={org.timeZone}
                  lang={lang}
                />
              ))}
            </ul>
          </>
        ) : (
          <div className={styles.empty}>
            <h2 className={styles.emptyTitle}>{t("landing.emptyTitle")}</h2>
            <p>{t("landing.emptyBody", { org: org.name })}</p>
          </div>
        )}
        <p className={styles.account}>
          {t.rich("landing.account", { link: (chunks) => <Link href={withLang(`${base}/account`, langParam)}>{chunks}</Link> })}
        </p>
      </main>
      <footer className={shell.footer}>
        <p>
          {org.legalName ?? org.name}
          {org.taxId ? ` · ${t("site.taxId", { taxId: org.taxId })}` : ""}
        </p>
        <p>{t.rich("site.fundraisingBy", { link: (chunks) => chunks })}</p>
        <LanguageMenu />
      </footer>
    </div>
  );
}
