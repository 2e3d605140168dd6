import dynamic from "next/dynamic";
import { INTERVAL_ADVERB } from "./format";
import { SandboxCardForm } from "./sandbox-card-form";
import type { CreatedDonation, PaymentConfig } from "./types";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

// Stripe.js is loaded only in Stripe mode, and only once the donor reaches the payment step.
const StripePayment = dynamic(() => import("./stripe-payment").then((m) => m.StripePayment), {
  ssr: false,
  loading: () => <div className={styles.paymentSkeleton} aria-hidden="true" />,
});

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
  const { isEvent, money } = f;
  const returnPath = `${props.thankYouPath}?donation=${encodeURIComponent(created.id)}`;
  const chargeLabel = `${money(created.chargeAmountCents)}${created.recurringInterval ? ` ${INTERVAL_ADVERB[created.recurringInterval]}` : ""}`;
  return (
    <div className={styles.form}>
      <p className={styles.stepLabel}>Step 2 of 2</p>
      <h3 className={styles.stepHeading} id={f.ids.id("payment")} tabIndex={-1}>
        Payment
      </h3>
      <div className={styles.reviewBox}>
        <p className={styles.reviewText}>
          {isEvent ? (
            <>
              {created.tickets} ticket{created.tickets === 1 ? "" : "s"} to {f.campaign.title}:{" "}
            </>
          ) : (
            <>Your gift to {organizationName}: </>
          )}
          <strong className={styles.num}>{chargeLabel}</strong>
          {created.feeCents > 0 && <span className={styles.reviewNote}> (includes {money(created.feeCents)} to cover fees)</span>}
        </p>
        {!isEvent && (
          <button type="button" className={styles.linkButton} onClick={props.onChangeGift}>
            Change<span className={styles.srOnly}> your gift</span>
          </button>
        )}
      </div>
      {payment.mode === "stripe" ? (
        <StripePayment
          key={created.clientSecret}
          publishableKey={payment.publishableKey}
          clientSecret={created.clientSecret}
          returnPath={returnPath}
          payLabel={`Pay ${chargeLabel}`}
        />
      ) : (
        <SandboxCardForm clientSecret={created.clientSecret} returnPath={returnPath} payLabel={`Pay ${chargeLabel}`} />
      )}
    </div>
  );
}
