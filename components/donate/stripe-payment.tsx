"use client";

import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import styles from "./donate-form.module.css";

// loadStripe once per key: Elements must receive the same promise on every render. A failed
// load (offline, script blocked) resolves to null and is forgotten, so a later mount retries.
const stripePromises = new Map<string, Promise<Stripe | null>>();
function getStripe(publishableKey: string) {
  let p = stripePromises.get(publishableKey);
  if (!p) {
    p = loadStripe(publishableKey).catch(() => {
      stripePromises.delete(publishableKey);
      return null;
    });
    stripePromises.set(publishableKey, p);
  }
  return p;
}

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
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busyRef = useRef(false);
  const t = useTranslations("donate.payment");

  async function onSubmit(ev: FormEvent<HTMLFormElement>) {
    ev.preventDefault();
    if (!stripe || !elements || !ready || busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setError(null);
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: new URL(returnPath, window.location.origin).toString() },
    });
    // Only reached when confirmation failed: a declined card, incomplete details, a network error.
    setError(
      error.type === "card_error" || error.type === "validation_error" ? (error.message ?? t("stripeCheckDetails")) : t("stripeFailed"),
    );
    busyRef.current = false;
    setBusy(false);
  }

  const canPay = Boolean(stripe && elements && ready);
  const loading = !ready && !loadFailed;
  return (
    <form className={styles.cardForm} onSubmit={onSubmit} noValidate aria-busy={loading || undefined}>
      {!loadFailed && (
        <div className={styles.stripeFrame}>
          {loading && <div className={styles.paymentSkeleton} aria-hidden="true" />}
          <PaymentElement
            options={{ layout: "tabs" }}
            onReady={() => setReady(true)}
            onLoadError={() => {
              setReady(true);
              setError(t("stripeLoadError"));
            }}
          />
        </div>
      )}
      {loading && <p className={styles.hint}>{t("stripeLoading")}</p>}
      <div className={styles.actions}>
        <div className={styles.alert} role="alert">
          {error ?? (loadFailed ? t("stripeLoadError") : null)}
        </div>
        <button type="submit" className={styles.submit} aria-disabled={!canPay || busy || undefined}>
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
