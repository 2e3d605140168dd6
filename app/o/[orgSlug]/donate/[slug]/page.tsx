import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { DonateForm } from "@/components/donate/donate-form";
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatMoney,
  matchRatioLabel,
  paragraphs,
  relativeTime,
  videoEmbedUrl,
} from "@/components/donate/format";
import { CalendarIcon, HeartIcon, InfoIcon, SparkIcon } from "@/components/donate/icons";
import { ShareButtons } from "@/components/donate/share-buttons";
import type { DonateFormCampaign } from "@/components/donate/types";
import { getEnv } from "@/lib/env";
import {
  captchaConfig,
  closureOf,
  loadCampaign,
  loadParent,
  loadView,
  palette,
  paymentConfig,
  type Closure,
  type DonatePageParams,
  type PublicView,
} from "./data";
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
  if (!data) return { title: "Campaign not found", robots: { index: false } };
  const { campaign, org, view } = data;
  const url = view.campaign.donateUrl;
  const description = summarize(campaign.description) ?? `Support ${org.name}: give to ${campaign.title}.`;
  const images = campaign.coverImageUrl ? [{ url: campaign.coverImageUrl, alt: `Cover image: ${campaign.title}` }] : undefined;
  return {
    // Resolves a root-relative cover (e.g. the demo's /covers/...) to an absolute Open Graph URL.
    metadataBase: new URL(getEnv().appUrl),
    title: { absolute: `${campaign.title} · ${org.name}` },
    description,
    alternates: { canonical: url },
    openGraph: { type: "website", url, siteName: org.name, title: campaign.title, description, images },
    twitter: { card: images ? "summary_large_image" : "summary", title: campaign.title, description, images: images?.map((i) => i.url) },
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
  const { campaign, org, view } = data;
  const c = view.campaign;
  const currency = org.currency;
  const money = (cents: number, short = false) => formatMoney(cents, currency, { short });
  const payment = paymentConfig();
  const closure = closureOf({ campaign, org }, payment);
  // The form's captcha, with the CSP nonce proxy.ts gave this request for the Turnstile script.
  const captcha = closure ? null : captchaConfig((await headers()).get("x-nonce"));
  const parent = c.parentCampaignId ? await loadParent(c.parentCampaignId) : null;
  const embed = c.videoUrl ? videoEmbedUrl(c.videoUrl) : null;
  const story = c.description ? paragraphs(c.description) : [];
  const now = Date.now();

  const formCampaign: DonateFormCampaign = {
    id: c.id,
    title: c.title,
    type: c.type,
    suggestedAmounts: c.suggestedAmounts,
    allowCustomAmount: c.allowCustomAmount,
    allowRecurring: c.allowRecurring,
    minAmountCents: c.minAmountCents,
    ticketPriceCents: c.ticketPriceCents,
    ticketCapacity: c.ticketCapacity,
    ticketsSold: c.ticketsSold,
    maxTicketsPerOrder: c.maxTicketsPerOrder,
    matchingEnabled: c.matchingEnabled,
    matchingOrgName: c.matchingOrgName,
    matchingRatioPct: c.matchingRatioPct,
    showDonorRoll: c.showDonorRoll,
  };
  const formHeading = c.type === "EVENT" ? "Get your tickets" : c.type === "MEMBERSHIP" ? "Become a member" : "Make a donation";

  return (
    <main id="main" className={styles.main}>
      <div className={styles.header}>
        {c.coverImageUrl && (
          <div className={styles.cover}>
            {/* A plain img: covers come from any host, and the box reserves 16:9 before it loads. */}
            <img src={c.coverImageUrl} alt={`Cover image: ${c.title}`} width={1200} height={675} fetchPriority="high" />
          </div>
        )}
        <div className={styles.titleBlock}>
          <p className={styles.eyebrow}>
            {org.name}
            {c.type === "EVENT"
              ? " · Event"
              : c.type === "MEMBERSHIP"
                ? " · Membership"
                : c.type === "PEER_TO_PEER"
                  ? c.parentCampaignId
                    ? " · Fundraising page"
                    : " · Peer-to-peer"
                  : ""}
          </p>
          <h1 className={styles.title}>{c.title}</h1>
          {parent && parent.campaign.id !== c.id && (
            <p className={styles.parentLink}>
              Fundraising for <a href={`/o/${parent.org.slug}/donate/${parent.campaign.slug}`}>{parent.campaign.title}</a>
            </p>
          )}
          {c.type === "EVENT" && c.startDate && (
            <p className={styles.eventDate}>
              <CalendarIcon />
              <time dateTime={c.startDate}>{formatDateTime(c.startDate)}</time>
            </p>
          )}
        </div>
      </div>

      <section className={styles.donate} id="donate" aria-labelledby="donate-heading">
        <div className={styles.card}>
          {view.progress && <Progress progress={view.progress} money={money} />}
          {c.matchingEnabled && <MatchingBanner c={c} progress={view.progress} money={money} />}
          {closure ? (
            <ClosedNotice closure={closure} view={view} orgName={org.name} />
          ) : (
            <>
              <h2 id="donate-heading" className={styles.cardHeading}>
                {formHeading}
              </h2>
              <DonateForm
                campaign={formCampaign}
                organizationName={org.name}
                currency={currency}
                payment={payment}
                thankYouPath={`/o/${org.slug}/donate/${c.slug}/thank-you`}
                captcha={captcha}
              />
            </>
          )}
        </div>
      </section>

      {(story.length > 0 || c.videoUrl) && (
        <div className={styles.story}>
          <section className={styles.panel} aria-labelledby="about-heading">
            <h2 id="about-heading" className={styles.panelHeading}>
              About this {c.type === "EVENT" ? "event" : "campaign"}
            </h2>
            {c.videoUrl &&
              (embed ? (
                <div className={styles.video}>
                  <iframe
                    src={embed}
                    title={`Video: ${c.title}`}
                    loading="lazy"
                    allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
                    allowFullScreen
                    referrerPolicy="strict-origin-when-cross-origin"
                  />
                </div>
              ) : (
                <p>
                  <a href={c.videoUrl} target="_blank" rel="noopener noreferrer">
                    Watch the campaign video<span className={styles.srOnly}> (opens in a new tab)</span>
                  </a>
                </p>
              ))}
            <div className={styles.prose}>
              {story.map((lines, i) => (
                <p key={i}>
                  {lines.map((line, j) => (
                    <span key={j}>
                      {j > 0 && <br />}
                      {line}
                    </span>
                  ))}
                </p>
              ))}
            </div>
          </section>
        </div>
      )}

      {(view.leaderboard || view.donorRoll || closure !== "ended") && (
        <div className={styles.social}>
          {view.leaderboard && (
            <section className={styles.panel} aria-labelledby="leaders-heading">
              <h2 id="leaders-heading" className={styles.panelHeading}>
                Top fundraisers
              </h2>
              {view.leaderboard.length === 0 ? (
                <div className={styles.empty}>
                  <p className={styles.emptyTitle}>No fundraiser pages yet</p>
                  <p>
                    Runners and supporters can start their own page for {c.title}. Ask {org.name} how to start yours.
                  </p>
                </div>
              ) : (
                <ol className={styles.leaders}>
                  {view.leaderboard.map((f, i) => (
                    <li key={f.id} className={styles.leader}>
                      <span className={styles.rank} aria-hidden="true">
                        {i + 1}
                      </span>
                      <div className={styles.leaderBody}>
                        <a href={`/o/${org.slug}/donate/${f.slug}`} className={styles.leaderLink}>
                          {f.title}
                        </a>
                        <p className={styles.leaderStats}>
                          <strong>{money(f.raisedAmountCents, true)}</strong> raised · {formatCount(f.donationCount)}{" "}
                          {f.donationCount === 1 ? "donation" : "donations"}
                        </p>
                      </div>
                    </li>
                  ))}
                </ol>
              )}
            </section>
          )}

          {view.donorRoll && (
            <section className={styles.panel} aria-labelledby="donors-heading">
              <h2 id="donors-heading" className={styles.panelHeading}>
                {c.type === "EVENT" ? "Who's coming" : "Recent donors"}
              </h2>
              {view.donorRoll.length === 0 ? (
                <div className={styles.empty}>
                  <span className={styles.emptyIcon}>
                    <HeartIcon size={22} />
                  </span>
                  <p className={styles.emptyTitle}>{c.type === "EVENT" ? "Be the first to get a ticket" : "Be the first to give"}</p>
                  <p>
                    {c.type === "EVENT" ? "Every guest list starts with one name." : "Every campaign starts with one gift."} Yours will
                    appear here{closure ? "" : " and encourage others to follow"}.
                    {!closure && (
                      <>
                        {" "}
                        <a href="#donate">{c.type === "EVENT" ? "Get tickets" : "Give now"}</a>
                      </>
                    )}
                  </p>
                </div>
              ) : (
                <ul className={styles.donors}>
                  {view.donorRoll.map((d, i) => (
                    <li key={`${d.createdAt}-${i}`} className={styles.donor}>
                      <span className={styles.avatar} aria-hidden="true">
                        {d.name === "Anonymous" ? "?" : d.name.charAt(0).toUpperCase()}
                      </span>
                      <div className={styles.donorBody}>
                        <p className={styles.donorTop}>
                          <span className={styles.donorName}>{d.name}</span>
                          <span className={styles.donorAmount}>{money(d.amountCents)}</span>
                        </p>
                        {d.message && <p className={styles.donorMessage}>{d.message}</p>}
                        <p className={styles.donorTime}>
                          <time dateTime={d.createdAt} title={formatDateTime(d.createdAt)}>
                            {relativeTime(d.createdAt, now)}
                          </time>
                        </p>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          )}

          {closure !== "ended" && (
            <section className={styles.panel} aria-labelledby="share-heading">
              <h2 id="share-heading" className={styles.panelHeading}>
                Share this {c.type === "EVENT" ? "event" : "campaign"}
              </h2>
              <p className={styles.panelIntro}>Sharing is one of the best ways to help {org.name} reach more people.</p>
              <ShareButtons url={c.donateUrl} title={c.title} text={`Support ${c.title} with ${org.name}`} />
            </section>
          )}
        </div>
      )}
    </main>
  );
}

function Progress({ progress, money }: { progress: NonNullable<PublicView["progress"]>; money: (c: number, short?: boolean) => string }) {
  const { raisedAmountCents, goalAmountCents, donationCount, percent } = progress;
  const count = (
    <>
      {formatCount(donationCount)} {donationCount === 1 ? "donation" : "donations"}
    </>
  );
  if (!goalAmountCents || percent === null) {
    return (
      <div className={styles.progress}>
        <p className={styles.raised}>
          <strong>{money(raisedAmountCents, true)}</strong> raised
        </p>
        <p className={styles.progressStats}>{count}</p>
      </div>
    );
  }
  const shown = Math.min(100, Math.max(0, percent));
  const pctLabel = `${formatCount(Math.floor(percent))}%`;
  return (
    <div className={styles.progress}>
      <p className={styles.raised}>
        <strong>{money(raisedAmountCents, true)}</strong>{" "}
        <span className={styles.raisedOf}>raised of {money(goalAmountCents, true)} goal</span>
      </p>
      <div
        className={styles.bar}
        role="progressbar"
        aria-label="Progress towards the goal"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(shown)}
        aria-valuetext={`${pctLabel} of the ${money(goalAmountCents, true)} goal`}
      >
        <div className={styles.barFill} style={{ width: `${shown}%` }} />
      </div>
      <p className={styles.progressStats}>
        <span>
          <strong>{pctLabel}</strong> funded
        </span>
        <span>{count}</span>
      </p>
    </div>
  );
}

function MatchingBanner({
  c,
  progress,
  money,
}: {
  c: PublicView["campaign"];
  progress: PublicView["progress"];
  money: (c: number, short?: boolean) => string;
}) {
  const by = c.matchingOrgName ?? "a generous supporter";
  const ratio = matchRatioLabel(c.matchingRatioPct);
  const exhausted = c.matchingMaxCents !== null && progress !== null && progress.matchedAmountCents >= c.matchingMaxCents;
  return (
    <div className={styles.matching}>
      <SparkIcon />
      <p>
        {exhausted ? (
          <>
            Matching by {by} is complete: <strong>{money(progress!.matchedAmountCents, true)}</strong> matched. Thank you!
          </>
        ) : (
          <>
            <strong>
              Every gift is matched {c.matchingRatioPct >= 100 ? ratio : `at ${ratio}`} by {by}
            </strong>
            {c.matchingMaxCents !== null && <> up to {money(c.matchingMaxCents, true)}</>}.
            {progress && c.matchingMaxCents !== null && progress.matchedAmountCents > 0 && (
              <span className={styles.matchingSub}> {money(progress.matchedAmountCents, true)} matched so far.</span>
            )}
          </>
        )}
      </p>
    </div>
  );
}

const CLOSED: Record<NonNullable<Closure>, { title: string; body: (org: string) => string }> = {
  paused: { title: "Donations are paused", body: (org) => `${org} has paused this campaign for now. Please check back soon.` },
  "not-started": { title: "Giving hasn't opened yet", body: (org) => `${org} is getting this campaign ready. Please come back when it opens.` },
  ended: { title: "This campaign has ended", body: (org) => `Thank you to everyone who gave. ${org} is no longer accepting gifts here.` },
  organization: {
    title: "Not accepting donations yet",
    body: (org) => `${org} is still setting up online giving. Please check back soon.`,
  },
  unavailable: { title: "Online giving is unavailable", body: () => "Payments can't be taken right now. Please try again later." },
  "sold-out": { title: "Sold out", body: () => "Every ticket has been claimed. Thank you for your interest!" },
  "no-amounts": { title: "Not accepting gifts online", body: (org) => `Please contact ${org} to give to this campaign.` },
};

function ClosedNotice({ closure, view, orgName }: { closure: NonNullable<Closure>; view: PublicView; orgName: string }) {
  const text = CLOSED[closure];
  const endDate = view.campaign.endDate;
  return (
    <div className={styles.notice}>
      <InfoIcon />
      <div>
        <h2 id="donate-heading" className={styles.noticeTitle}>
          {text.title}
        </h2>
        <p>{text.body(orgName)}</p>
        {closure === "ended" && endDate && new Date(endDate).getTime() <= Date.now() && <p>Ended {formatDate(endDate)}.</p>}
        {closure === "not-started" && view.campaign.startDate && (
          <p>
            Giving opens <time dateTime={view.campaign.startDate}>{formatDateTime(view.campaign.startDate)}</time>.
          </p>
        )}
        <p className={styles.noticeNote}>No payment can be made on this page.</p>
      </div>
    </div>
  );
}
