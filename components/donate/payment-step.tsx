import dynamic from "next/dynamic";
import type { MouseEvent } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import { withLang } from "@/lib/i18n/href";
import type { CreatedDonation, PaymentConfig } from "./types";
import styles from "./donate-form.module.css";

// The card form's code (and Stripe.js, in Stripe mode) is loaded only once the donor reaches the
// payment step: the donate page itself loads no more than the gift's form.
const skeleton = () => <div className={styles.paymentSkeleton} aria-hidden="true" />;
const StripePayment = dynamic(() => import("./stripe-payment").then((m) => m.StripePayment), { ssr: false, loading: skeleton });
const SandboxCardForm = dynamic(() => import("./sandbox-card-form").then((m) => m.SandboxCardForm), { ssr: false, loading: skeleton });

/**
 * Starts loading the card form's code while the gift is being created (step 1 sent), so it is
 * there when the payment step shows: the donor (and a keyboard's Tab) finds the card fields at once.
 */
export function preloadPaymentStep(mode: PaymentConfig["mode"]): void {
  if (mode === "stripe") void import("./stripe-payment");
  else if (mode === "sandbox") void import("./sandbox-card-form");
}

/** What the payment step shows of the donation it pays: POST /api/donations's answer, less its secret. */
export type PaymentStepDonation = Pick<CreatedDonation, "id" | "chargeAmountCents" | "feeCents" | "recurringInterval" | "tickets">;

/**
 * The way back to change the gift: a button in the donate form, which returns to its first step
 * as the donor left it; a link to the donate page on the payment's own page, whose `onClick` may
 * take the browser's Back instead.
 */
export type ChangeGift = { onClick: () => void } | { href: string; onClick?: (ev: MouseEvent<HTMLAnchorElement>) => void };

export type PaymentStepProps = {
  /** An EVENT's tickets are reviewed with the campaign's title and can't be changed from here. */
  isEvent: boolean;
  campaignTitle: string;
  organizationName: string;
  /** Formats minor units in the organization's currency and the page's language. */
  money: (cents: number) => string;
  /** The heading's element ID, which the page focuses when the step shows. */
  headingId: string;
  /** 3 inside the donate page's card (under its h2), 1 on a page of its own. */
  headingLevel: 1 | 3;
  donation: PaymentStepDonation;
  /** The payment's client secret; null until the page knows it, when the card form's place is kept empty. */
  clientSecret: string | null;
  payment: PaymentConfig;
  /** Path of the thank-you page (`/o/:org/donate/:slug/thank-you`). */
  thankYouPath: string;
  /** Not offered for an EVENT's tickets. */
  changeGift: ChangeGift;
  /**
   * The step is a page of its own: once paid, the thank-you page takes its place in the history,
   * so Back from it goes to the donate page rather than to a payment already made.
   */
  ownPage?: boolean;
};

/** Step 2: the gift as created, a way back to change it, and the card form. */
export function PaymentStep(props: PaymentStepProps) {
  const { isEvent, money, donation, clientSecret, payment, changeGift } = props;
  const t = useTranslations("donate");
  const { langParam } = useLocale();
  const returnPath = withLang(`${props.thankYouPath}?donation=${encodeURIComponent(donation.id)}`, langParam);
  const chargeLabel = t("payment.charge", { amount: money(donation.chargeAmountCents), interval: donation.recurringInterval ?? "ONCE" });
  const payLabel = t("payment.pay", { charge: chargeLabel });
  const Heading = props.headingLevel === 1 ? "h1" : "h3";
  const changeText = t.rich("payment.change", { sr: (chunks) => <span className="sr-only">{chunks}</span> });
  return (
    <div className={styles.form}>
      <p className={styles.stepLabel}>{t("form.step", { step: 2, total: 2 })}</p>
      <Heading className={styles.stepHeading} id={props.headingId} tabIndex={-1}>
        {t("payment.heading")}
      </Heading>
      <div className={styles.reviewBox}>
        <p className={styles.reviewText}>
          {isEvent
            ? t("payment.reviewTickets", { count: donation.tickets ?? 0, campaign: props.campaignTitle })
            : t("payment.reviewGift", { org: props.organizationName })}
          <strong className={styles.num}>{chargeLabel}</strong>
          {donation.feeCents > 0 && (
            <span className={styles.reviewNote}>{t("payment.includesFee", { fee: money(donation.feeCents) })}</span>
          )}
        </p>
        {!isEvent &&
          ("href" in changeGift ? (
            <a className={styles.linkButton} href={changeGift.href} onClick={changeGift.onClick}>
              {changeText}
            </a>
          ) : (
            <button type="button" className={styles.linkButton} onClick={changeGift.onClick}>
              {changeText}
            </button>
          ))}
      </div>
      {clientSecret === null ? (
        skeleton()
      ) : payment.mode === "stripe" ? (
        <StripePayment
          key={clientSecret}
          publishableKey={payment.publishableKey}
          clientSecret={clientSecret}
          returnPath={returnPath}
          payLabel={payLabel}
        />
      ) : (
        <SandboxCardForm clientSecret={clientSecret} returnPath={returnPath} payLabel={payLabel} replace={props.ownPage} />
      )}
    </div>
  );
}
