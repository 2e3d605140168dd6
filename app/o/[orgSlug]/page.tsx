import type { CSSProperties } from "react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db";
import { findOrgBySlug, listLandingCampaigns } from "@/db/queries/hosted-urls";
import type { Campaign } from "@/db/schema";
import { brandPalette, brandStyle } from "@/components/donate/brand";
import { formatCount, formatDate } from "@/components/donate/format";
import { formatMoney } from "@/lib/money";
import { SLUG_PATTERN } from "@/lib/schemas/common";
import { OrgBar } from "./org-bar";
import { orgBasePath } from "./site";
import shell from "./donate/[slug]/page.module.css";
import styles from "./landing.module.css";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ orgSlug: string }> };

const loadOrg = cache(async (slug: string) => (slug.length <= 48 && SLUG_PATTERN.test(slug) ? findOrgBySlug(await getDb(), slug) : null));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const org = await loadOrg((await params).orgSlug);
  if (!org) return { title: "Organization not found", robots: { index: false } };
  return { title: { absolute: `Support ${org.name}` }, description: `Give to ${org.name}'s campaigns.` };
}

const ACTION: Record<Campaign["type"], string> = {
  DONATION: "Donate",
  PEER_TO_PEER: "Donate",
  EVENT: "Get tickets",
  MEMBERSHIP: "Join",
};

const SUMMARY_MAX = 160;

function summary(text: string | null): string | null {
  const flat = text?.replace(/\s+/g, " ").trim();
  if (!flat) return null;
  return flat.length <= SUMMARY_MAX ? flat : `${flat.slice(0, SUMMARY_MAX - 1).replace(/\s+\S*$/, "")}…`;
}

/** A campaign's card: its cover, what it is for, how far along (when its totals are public) and the way to give. */
function CampaignCard({ c, href, currency }: { c: Campaign; href: string; currency: string }) {
  const money = (minor: number) => formatMoney(minor, currency, { short: true });
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
                <strong>{money(c.raisedAmountCents)}</strong> raised{goal ? ` of ${money(goal)}` : ""}
              </p>
              {goal && pct !== null && (
                <div
                  className={styles.bar}
                  role="progressbar"
                  aria-label={`Progress of ${c.title}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.min(100, pct)}
                  aria-valuetext={`${formatCount(pct)}% of the ${money(goal)} goal`}
                >
                  <div className={styles.barFill} style={{ width: `${Math.min(100, Math.max(0, pct))}%` }} />
                </div>
              )}
              <p className={styles.stats}>
                {goal && pct !== null && <span>{formatCount(pct)}% funded</span>}
                <span>
                  {formatCount(c.donationCount)} {c.donationCount === 1 ? "gift" : "gifts"}
                </span>
              </p>
            </div>
          )}
          {c.endDate && <p className={styles.ends}>Ends {formatDate(c.endDate.toISOString())}</p>}
          <Link className={styles.give} href={href}>
            {ACTION[c.type]}
            <span className={shell.srOnly}> to {c.title}</span>
          </Link>
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
  return (
    <div className={shell.shell} style={brandStyle(brandPalette(org.color)) as CSSProperties}>
      <a className={shell.skip} href="#main">
        Skip to content
      </a>
      <OrgBar org={org} secure={false} />
      <main id="main" className={styles.main}>
        <h1 className={styles.heading}>Support {org.name}</h1>
        {campaigns.length > 0 ? (
          <>
            <p className={styles.lead}>
              Choose a campaign to give to. Every gift goes to {org.legalName ?? org.name}, and you get a receipt by email right away.
            </p>
            <ul className={styles.grid}>
              {campaigns.map((c) => (
                <CampaignCard key={c.id} c={c} href={`${base}/donate/${c.slug}`} currency={org.currency} />
              ))}
            </ul>
          </>
        ) : (
          <div className={styles.empty}>
            <h2 className={styles.emptyTitle}>No open campaigns right now</h2>
            <p>
              {org.name} isn&apos;t raising money for a campaign at the moment. If someone sent you a donation link, it may be for a
              campaign that has ended or not started yet: ask them for the current one.
            </p>
          </div>
        )}
        <p className={styles.account}>
          Given before? <Link href={`${base}/account`}>See your gifts and receipts</Link>
        </p>
      </main>
      <footer className={shell.footer}>
        <p>
          {org.legalName ?? org.name}
          {org.taxId ? ` · Tax ID ${org.taxId}` : ""}
        </p>
        <p>Fundraising by Goodfund</p>
      </footer>
    </div>
  );
}
