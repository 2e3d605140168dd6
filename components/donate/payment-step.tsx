import dynamic from "next/dynamic";
import { useLocale } from "@/components/i18n/provider";
import { withLang } from "@/lib/i18n/href";
import type { CreatedDonation, PaymentConfig } from "./types";
import type { DonateFormState } from "./use-donate-form";
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

/** Step 2: the gift as created, a way back to change it, and the card form. */
export function PaymentStep(props: {
  f: DonateFormState;
  onChangeGift: () => void;
  created: CreatedDonation;
  organizationName: string;
  payment: PaymentConfig;
  /** Path of the thank-you page (`/o/:org/donate/:slug/thank-you`). */
  thankYouPath: string;
}) {
  const { f, created, organizationName, payment } = props;
  const { isEvent, money, t } = f;
  const { langParam } = useLocale();
  const returnPath = withLang(`${props.thankYouPath}?donation=${encodeURIComponent(created.id)}`, langParam);
  const chargeLabel = t("payment.charge", { amount: money(created.chargeAmountCents), interval: created.recurringInterval ?? "ONCE" });
  const payLabel = t("payment.pay", { charge: chargeLabel });
  return (
    <div className={styles.form}>
      <p className={styles.stepLabel}>{t("form.step", { step: 2, total: 2 })}</p>
      <h3 className={styles.stepHeading} id={f.ids.id("payment")} tabIndex={-1}>
        {t("payment.heading")}
      </h3>
      <div className={styles.reviewBox}>
        <p className={styles.reviewText}>
          {isEvent
            ? t("payment.reviewTickets", { count: created.tickets ?? 0, campaign: f.campaign.title })
            : t("payment.reviewGift", { org: organizationName })}
          <strong className={styles.num}>{chargeLabel}</strong>
          {created.feeCents > 0 && <span className={styles.reviewNote}>{t("payment.includesFee", { fee: money(created.feeCents) })}</span>}
        </p>
        {!isEvent && (
          <button type="button" className={styles.linkButton} onClick={props.onChangeGift}>
            {t.rich("payment.change", { sr: (chunks) => <span className="sr-only">{chunks}</span> })}
          </button>
        )}
      </div>
      {payment.mode === "stripe" ? (
        <StripePayment
          key={created.clientSecret}
          publishableKey={payment.publishableKey}
          clientSecret={created.clientSecret}
          returnPath={returnPath}
          payLabel={payLabel}
        />
      ) : (
        <SandboxCardForm clientSecret={created.clientSecret} returnPath={returnPath} payLabel={payLabel} />
      )}
    </div>
  );
}
