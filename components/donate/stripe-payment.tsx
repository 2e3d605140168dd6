"use client";

import { Elements, PaymentElement } from "@stripe/react-stripe-js";
import { useEffect, useState } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import { getStripe, useStripeForm } from "@/components/stripe/stripe-form";
import styles from "./donate-form.module.css";

/** The page's brand colour as computed on the server (`--brand-text`), for Stripe's iframe. */
function brandColor(): string | undefined {
  if (typeof document === "undefined") return undefined;
  const el = document.querySelector("[data-donate-brand]");
  const v = el ? getComputedStyle(el).getPropertyValue("--brand-text").trim() : "";
  return v || undefined;
}

/**
 * Stripe mode: the Payment Element for the donation's PaymentIntent (or the first invoice's,
 * for recurring gifts). `confirmPayment` sends the donor to the thank-you page (after 3-D
 * Secure when needed); it returns only when confirmation failed, with a message to show.
 */
export function StripePayment(props: { publishableKey: string; clientSecret: string; returnPath: string; payLabel: string }) {
  const colorPrimary = brandColor();
  const { locale } = useLocale();
  const [stripePromise] = useState(() => getStripe(props.publishableKey));
  const [loadFailed, setLoadFailed] = useState(false);
  useEffect(() => {
    let live = true;
    void stripePromise.then((s) => {
      if (live && !s) setLoadFailed(true);
    });
    return () => {
      live = false;
    };
  }, [stripePromise]);
  return (
    <Elements
      stripe={stripePromise}
      options={{
        clientSecret: props.clientSecret,
        // The Payment Element's own labels and messages in the page's language.
        locale,
        appearance: {
          theme: "stripe",
          variables: { ...(colorPrimary ? { colorPrimary } : {}), borderRadius: "10px", fontSizeBase: "16px", colorDanger: "#b42318" },
        },
      }}
    >
      <StripeCheckout {...props} loadFailed={loadFailed} />
    </Elements>
  );
}

function StripeCheckout({ returnPath, payLabel, loadFailed }: { returnPath: string; payLabel: string; loadFailed: boolean }) {
  const t = useTranslations("donate.payment");
  // `confirmPayment` only returns when confirmation failed: a declined card, incomplete details, a network error.
  const { canSubmit, ready, busy, error, onSubmit, elementEvents } = useStripeForm(
    (stripe, elements) =>
      stripe.confirmPayment({
        elements,
        confirmParams: { return_url: new URL(returnPath, window.location.origin).toString() },
      }),
    { checkDetails: t("stripeCheckDetails"), failed: t("stripeFailed"), loadError: t("stripeLoadError") },
  );

  const loading = !ready && !loadFailed;
  return (
    <form className={styles.cardForm} onSubmit={onSubmit} noValidate aria-busy={loading || undefined}>
      {!loadFailed && (
        <div className={styles.stripeFrame}>
          {loading && <div className={styles.paymentSkeleton} aria-hidden="true" />}
          <PaymentElement options={{ layout: "tabs" }} {...elementEvents} />
        </div>
      )}
      {loading && <p className={styles.hint}>{t("stripeLoading")}</p>}
      <div className={styles.actions}>
        <div className={styles.alert} role="alert">
          {error ?? (loadFailed ? t("stripeLoadError") : null)}
        </div>
        <button type="submit" className={styles.submit} aria-disabled={!canSubmit || busy || undefined}>
          {busy ? (
            <>
              <span className={styles.spinner} aria-hidden="true" /> {t("processing")}
            </>
          ) : (
            payLabel
          )}
        </button>
      </div>
      <p className={styles.secureNote}>{t("stripeNote")}</p>
    </form>
  );
}
