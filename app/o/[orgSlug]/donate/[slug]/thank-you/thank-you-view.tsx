import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { and, desc, eq, or, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { donationEvents } from "@/db/schema";
import { AutoRefresh } from "@/components/donate/auto-refresh";
import { FreshOnReturn } from "@/components/donate/fresh-on-return";
import { withLang } from "@/lib/i18n/href";
import { getTranslations } from "@/lib/i18n/request";
import { formatMoney } from "@/lib/money";
import { HeartIcon, InfoIcon } from "@/components/donate/icons";
import { RecordGift } from "@/components/donate/record-gift";
import { ShareButtons } from "@/components/donate/share-buttons";
import { shareLabels } from "@/components/donate/share-labels";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { ticketsOfDonation } from "@/lib/services/events/tickets";
import { ticketQrDataUrl } from "@/lib/tickets/qr";
import { orgBasePath, pageLanguage } from "../../../site";
import { findDonation, loadCampaign, renderId, type DonatePageParams } from "../data";
import styles from "../page.module.css";

export type ThankYouProps = {
  params: Promise<DonatePageParams>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The thank-you page's title, on its own page and inside the embeddable form's frame; never indexed. */
export async function thankYouMetadata({ params }: ThankYouProps): Promise<Metadata> {
  const { orgSlug, slug } = await params;
  const row = await loadCampaign(orgSlug, slug);
  const t = await getTranslations("donate");
  return {
    title: { absolute: row ? t("meta.thankYouTitle", { campaign: row.campaign.title }) : t("meta.thankYou") },
    robots: { index: false, follow: false },
  };
}

const DECLINE = "payment_intent.payment_failed";

/**
 * Whether the donation's last failure was a declined card (the donor tried paying), rather than
 * a payment never finished: a checkout abandoned, a ticket hold expired, a payment canceled, or
 * one the processor could not start.
 */
async function lastFailureWasDecline(id: string): Promise<boolean> {
  const db = await getDb();
  const [last] = await db
    .select({ type: donationEvents.type })
    .from(donationEvents)
    .where(and(eq(donationEvents.donationId, id), or(eq(donationEvents.type, DECLINE), sql`${donationEvents.data}->>'to' = 'FAILED'`)))
    .orderBy(desc(donationEvents.id))
    .limit(1);
  return last?.type === DECLINE;
}

/** A paid order's tickets: one QR code per seat, with its attendee, tier and code, and the order's ticket PDF. */
async function TicketCodes({ donationId, pdfHref }: { donationId: string; pdfHref: string }) {
  const { t } = await pageLanguage();
  const rows = await ticketsOfDonation(await getDb(), donationId);
  if (rows.length === 0) return null;
  const qrs = await Promise.all(rows.map((r) => ticketQrDataUrl(r.code)));
  return (
    <section className={styles.tickets} aria-labelledby="tickets-heading">
      <h2 id="tickets-heading" className={styles.panelHeading}>
        {t("thanks.ticketsHeading")}
      </h2>
      <p className={styles.panelIntro}>{t("thanks.ticketsIntro")}</p>
      <ul className={styles.ticketList}>
        {rows.map((r, i) => (
          <li key={r.id} className={styles.ticket} data-ticket-code={r.code}>
            {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL made on the server */}
            <img
              src={qrs[i]}
              alt={t("thanks.ticketQrAlt", { name: r.attendeeName })}
              width={200}
              height={200}
              className={styles.ticketQr}
            />
            <strong>{r.attendeeName}</strong>
            <span>{r.tierName}</span>
            <code className={styles.ticketCode}>{t("thanks.ticketCode", { code: r.code })}</code>
          </li>
        ))}
      </ul>
      <a className={styles.back} href={pdfHref}>
        {t("thanks.ticketsPdf")}
      </a>
    </section>
  );
}

/** The card saying how the gift went: an optional icon, the heading, a lead line, then what follows. */
function ThanksCard({
  icon,
  title,
  lead,
  children,
}: {
  icon?: React.ReactNode;
  title: string;
  lead: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <div className={styles.thanksCard}>
      {icon && <span className={styles.thanksIcon}>{icon}</span>}
      <h1 className={styles.thanksTitle}>{title}</h1>
      <p className={styles.thanksLead}>{lead}</p>
      {children}
    </div>
  );
}

/**
 * Where a donor lands after paying: the thank-you page, or with `embed` its version inside the
 * embeddable form's frame, whose links lead back to the form rather than the full page.
 */
export async function ThankYouView({ params, searchParams, embed = false }: ThankYouProps & { embed?: boolean }) {
  const { orgSlug, slug } = await params;
  const sp = await searchParams;
  const row = await loadCampaign(orgSlug, slug);
  if (!row) notFound();
  const { campaign, org } = row;
  const { t, tag, langParam } = await pageLanguage();
  const donationId = typeof sp.donation === "string" ? sp.donation : null;
  const d = donationId ? await findDonation(donationId, campaign.id) : null;
  // On the organization's custom domain, its short paths (`/donate/{slug}`).
  const donatePathBase = `${await orgBasePath(org.slug)}/donate/${campaign.slug}`;
  const donatePath = withLang(`${donatePathBase}${embed ? "/embed" : ""}`, langParam);
  const shareUrl = `${donateBaseUrl(org)}/donate/${campaign.slug}`;
  // Stripe appends redirect_status to return_url; "failed" arrives before the webhook does.
  const redirectFailed = sp.redirect_status === "failed";
  const strong = (chunks: React.ReactNode) => <strong className={styles.thanksAmount}>{chunks}</strong>;

  let body: React.ReactNode;
  // Sharing and the way back make sense after a gift; otherwise the card has its own button.
  let gave = false;
  if (!d) {
    body = (
      <ThanksCard
        icon={<InfoIcon size={28} />}
        title={t("thanks.notFoundTitle")}
        lead={t("thanks.notFoundBody", { campaign: campaign.title })}
      >
        <a className={styles.retry} href={donatePath}>
          {t("thanks.goTo", { campaign: campaign.title })}
        </a>
      </ThanksCard>
    );
  } else {
    const money = (c: number) => formatMoney(c, d.currency, { locale: tag });
    const name = { named: d.firstName ? "true" : "false", name: d.firstName ?? "" };
    const interval = d.recurringInterval ?? "ONCE";
    const charged = d.amount + d.feeCents;
    // A PENDING donation with a reason had its card declined and keeps its tickets while payable.
    const declinedPending = d.status === "PENDING" && (redirectFailed || d.failureReason !== null);
    const failed = d.status === "FAILED" || declinedPending;
    const declined = declinedPending || (d.status === "FAILED" && donationId !== null && (await lastFailureWasDecline(donationId)));
    gave = d.status === "SUCCEEDED" || (d.status === "PENDING" && !failed);
    if (d.status === "SUCCEEDED") {
      const fee = d.feeCents > 0 ? money(d.feeCents) : null;
      body = (
        <ThanksCard
          icon={<HeartIcon size={28} />}
          title={t("thanks.title", name)}
          lead={
            d.tickets
              ? t("thanks.ticketsDone", { count: d.tickets, campaign: campaign.title, org: org.name })
              : t.rich("thanks.giftDone", { interval, amount: money(d.amount), campaign: campaign.title, org: org.name, strong })
          }
        >
          {/* Remembered in this tab, so the donate page says so if the donor goes back to it; the payment's secret leaves the address (renders nothing). */}
          <RecordGift
            campaignId={campaign.id}
            gift={{ donationId: donationId!, amountCents: d.amount, currency: d.currency, tickets: d.tickets }}
          />
          <p className={styles.thanksMeta}>
            {d.recurringInterval
              ? fee
                ? t.rich("thanks.chargedRecurringFee", { amount: money(charged), interval, fee, strong })
                : t.rich("thanks.chargedRecurring", { amount: money(charged), interval, strong })
              : d.tickets || fee
                ? fee
                  ? t.rich("thanks.totalChargedFee", { amount: money(charged), fee, strong })
                  : t.rich("thanks.totalCharged", { amount: money(charged), strong })
                : null}
            {t("thanks.receipt")}
          </p>
          {d.tickets ? (
            <TicketCodes
              donationId={donationId!}
              pdfHref={withLang(`${donatePathBase}/thank-you/tickets.pdf?donation=${donationId}`, langParam)}
            />
          ) : null}
        </ThanksCard>
      );
    } else if (failed && !declined) {
      body = (
        <ThanksCard icon={<InfoIcon size={28} />} title={t("thanks.notCompletedTitle")} lead={t("thanks.notCompletedBody")}>
          <a className={styles.retry} href={donatePath}>
            {t("thanks.startNew")}
          </a>
        </ThanksCard>
      );
    } else if (failed) {
      body = (
        <ThanksCard
          icon={<InfoIcon size={28} />}
          title={t("thanks.declinedTitle")}
          lead={t("thanks.declinedBody", { tickets: d.tickets ? "true" : "false" })}
        >
          <a className={styles.retry} href={donatePath}>
            {t("thanks.tryAgain")}
          </a>
        </ThanksCard>
      );
    } else if (d.status === "PENDING") {
      body = (
        <ThanksCard
          icon={<HeartIcon size={28} />}
          title={t("thanks.pendingTitle", name)}
          lead={t.rich("thanks.pendingBody", { amount: money(charged), interval, strong })}
        >
          <AutoRefresh className={styles.thanksStatus} />
        </ThanksCard>
      );
    } else {
      // REFUNDED or DISPUTED: later states of a gift that did go through.
      const status = d.status === "REFUNDED" ? "REFUNDED" : "DISPUTED";
      body = (
        <ThanksCard
          title={t("thanks.reversedTitle", name)}
          lead={
            d.tickets
              ? t("thanks.reversedTickets", { status, count: d.tickets, campaign: campaign.title, org: org.name })
              : t.rich("thanks.reversedGift", { status, amount: money(d.amount), campaign: campaign.title, org: org.name, strong })
          }
        />
      );
    }
  }

  return (
    <main id="main" className={styles.thanks}>
      {/* The gift's state as it is now when Back or Forward shows the page again (it may have settled since). */}
      <FreshOnReturn renderId={renderId()} />
      {body}
      {gave && (
        <>
          <section className={styles.panel} aria-labelledby="share-heading">
            <h2 id="share-heading" className={styles.panelHeading}>
              {t("thanks.shareHeading", { campaign: campaign.title })}
            </h2>
            <p className={styles.panelIntro}>{t("thanks.shareIntro")}</p>
            <ShareButtons
              url={shareUrl}
              title={campaign.title}
              text={t("thanks.shareText", { campaign: campaign.title, org: org.name })}
              labels={shareLabels(t, shareUrl)}
            />
          </section>
          <p>
            <a className={styles.back} href={donatePath}>
              {t("thanks.back", { campaign: campaign.title })}
            </a>
          </p>
        </>
      )}
    </main>
  );
}
