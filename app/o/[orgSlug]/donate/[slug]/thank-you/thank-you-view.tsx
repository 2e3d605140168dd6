import { notFound } from "next/navigation";
import { and, desc, eq, or, sql } from "drizzle-orm";
import { getDb } from "@/db";
import { donationEvents, donations } from "@/db/schema";
import { AutoRefresh } from "@/components/donate/auto-refresh";
import { INTERVAL_ADVERB } from "@/components/donate/format";
import { formatMoney } from "@/lib/money";
import { HeartIcon, InfoIcon } from "@/components/donate/icons";
import { RecordGift } from "@/components/donate/record-gift";
import { ShareButtons } from "@/components/donate/share-buttons";
import { donateBaseUrl } from "@/lib/schemas/organizations";
import { orgBasePath } from "../../../site";
import { loadCampaign, type DonatePageParams } from "../data";
import styles from "../page.module.css";

export type ThankYouProps = {
  params: Promise<DonatePageParams>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * Only what the donor needs to see, by donation ID *and* campaign: a guessed or foreign ID
 * shows nothing. Never the email, last name or message.
 */
async function findDonation(id: string, campaignId: string) {
  if (!/^[\w-]{1,100}$/.test(id)) return null;
  const db = await getDb();
  const [row] = await db
    .select({
      amount: donations.amount,
      feeCents: donations.feeCents,
      currency: donations.currency,
      firstName: donations.firstName,
      status: donations.status,
      failureReason: donations.failureReason,
      recurringInterval: donations.recurringInterval,
      tickets: donations.tickets,
    })
    .from(donations)
    .where(and(eq(donations.id, id), eq(donations.campaignId, campaignId)))
    .limit(1);
  return row ?? null;
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
  const donationId = typeof sp.donation === "string" ? sp.donation : null;
  const d = donationId ? await findDonation(donationId, campaign.id) : null;
  // On the organization's custom domain, its short paths (`/donate/{slug}`).
  const donatePath = `${await orgBasePath(org.slug)}/donate/${campaign.slug}${embed ? "/embed" : ""}`;
  const shareUrl = `${donateBaseUrl(org)}/donate/${campaign.slug}`;
  // Stripe appends redirect_status to return_url; "failed" arrives before the webhook does.
  const redirectFailed = sp.redirect_status === "failed";

  let body: React.ReactNode;
  // Sharing and the way back make sense after a gift; otherwise the card has its own button.
  let gave = false;
  if (!d) {
    body = (
      <div className={styles.thanksCard}>
        <span className={styles.thanksIcon}>
          <InfoIcon size={28} />
        </span>
        <h1 className={styles.thanksTitle}>We couldn&apos;t find that donation</h1>
        <p className={styles.thanksLead}>
          If you completed a payment, a receipt is on its way to your email. Otherwise you can start a gift to {campaign.title}.
        </p>
        <a className={styles.retry} href={donatePath}>
          Go to {campaign.title}
        </a>
      </div>
    );
  } else {
    const money = (c: number) => formatMoney(c, d.currency);
    const what = d.tickets ? (
      <>
        {d.tickets} ticket{d.tickets === 1 ? "" : "s"} for {campaign.title}
      </>
    ) : (
      <>
        {d.recurringInterval ? `${INTERVAL_ADVERB[d.recurringInterval]} ` : ""}gift of{" "}
        <strong className={styles.thanksAmount}>{money(d.amount)}</strong> to {campaign.title}
      </>
    );
    const charged = d.amount + d.feeCents;
    // A PENDING donation with a reason had its card declined and keeps its tickets while payable.
    const declinedPending = d.status === "PENDING" && (redirectFailed || d.failureReason !== null);
    const failed = d.status === "FAILED" || declinedPending;
    const declined = declinedPending || (d.status === "FAILED" && donationId !== null && (await lastFailureWasDecline(donationId)));
    gave = d.status === "SUCCEEDED" || (d.status === "PENDING" && !failed);
    if (d.status === "SUCCEEDED") {
      body = (
        <div className={styles.thanksCard}>
          {/* Remembered in this tab, so the donate page says so if the donor goes back to it. */}
          <RecordGift
            campaignId={campaign.id}
            gift={{ donationId: donationId!, amountCents: d.amount, currency: d.currency, tickets: d.tickets }}
          />
          <span className={styles.thanksIcon}>
            <HeartIcon size={28} />
          </span>
          <h1 className={styles.thanksTitle}>Thank you{d.firstName ? `, ${d.firstName}` : ""}!</h1>
          <p className={styles.thanksLead}>
            Your {what} {d.tickets ? "are confirmed" : "is complete"}. It means a lot to everyone at {org.name}.
          </p>
          <p className={styles.thanksMeta}>
            {d.recurringInterval ? (
              <>
                You&apos;ll be charged <strong className={styles.thanksAmount}>{money(charged)}</strong>{" "}
                {INTERVAL_ADVERB[d.recurringInterval]}
                {d.feeCents > 0 && <>, including {money(d.feeCents)} to cover fees</>}.{" "}
              </>
            ) : d.tickets || d.feeCents > 0 ? (
              <>
                Total charged: <strong className={styles.thanksAmount}>{money(charged)}</strong>
                {d.feeCents > 0 && <>, including {money(d.feeCents)} to cover fees</>}.{" "}
              </>
            ) : null}
            A receipt is on its way to your email.
          </p>
        </div>
      );
    } else if (failed && !declined) {
      body = (
        <div className={styles.thanksCard}>
          <span className={styles.thanksIcon}>
            <InfoIcon size={28} />
          </span>
          <h1 className={styles.thanksTitle}>This donation was not completed</h1>
          <p className={styles.thanksLead}>The payment was never finished, so nothing was charged. You can start a new gift.</p>
          <a className={styles.retry} href={donatePath}>
            Start a new gift
          </a>
        </div>
      );
    } else if (failed) {
      body = (
        <div className={styles.thanksCard}>
          <span className={styles.thanksIcon}>
            <InfoIcon size={28} />
          </span>
          <h1 className={styles.thanksTitle}>Your payment didn&apos;t go through</h1>
          <p className={styles.thanksLead}>
            Your card was not charged for this {d.tickets ? "order" : "gift"}. You can try again with another card.
          </p>
          <a className={styles.retry} href={donatePath}>
            Try again
          </a>
        </div>
      );
    } else if (d.status === "PENDING") {
      body = (
        <div className={styles.thanksCard}>
          <span className={styles.thanksIcon}>
            <HeartIcon size={28} />
          </span>
          <h1 className={styles.thanksTitle}>Almost there{d.firstName ? `, ${d.firstName}` : ""}</h1>
          <p className={styles.thanksLead}>
            We&apos;re confirming your payment of <strong className={styles.thanksAmount}>{money(charged)}</strong>
            {d.recurringInterval ? ` ${INTERVAL_ADVERB[d.recurringInterval]}` : ""}. This usually takes a few seconds.
          </p>
          <AutoRefresh className={styles.thanksStatus} />
        </div>
      );
    } else {
      // REFUNDED or DISPUTED: later states of a gift that did go through.
      body = (
        <div className={styles.thanksCard}>
          <h1 className={styles.thanksTitle}>Thank you{d.firstName ? `, ${d.firstName}` : ""}</h1>
          <p className={styles.thanksLead}>
            This {what} has been {d.status === "REFUNDED" ? "refunded" : "disputed"}. Contact {org.name} with any questions.
          </p>
        </div>
      );
    }
  }

  return (
    <main id="main" className={styles.thanks}>
      {body}
      {gave && (
        <>
          <section className={styles.panel} aria-labelledby="share-heading">
            <h2 id="share-heading" className={styles.panelHeading}>
              Help {campaign.title} go further
            </h2>
            <p className={styles.panelIntro}>Friends are far more likely to give when someone they know asks.</p>
            <ShareButtons url={shareUrl} title={campaign.title} text={`I just supported ${campaign.title} with ${org.name}. Join me!`} />
          </section>
          <p>
            <a className={styles.back} href={donatePath}>
              ← Back to {campaign.title}
            </a>
          </p>
        </>
      )}
    </main>
  );
}
