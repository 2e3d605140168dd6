"use client";

import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useRef, useState, type FormEvent } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import { Button } from "@/components/ui/button";
import styles from "./plan-controls.module.css";

// loadStripe once per key, so Elements gets the same promise on every render; a failed load is forgotten and retried.
const loaders = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string) {
  let p = loaders.get(publishableKey);
  if (!p) {
    p = loadStripe(publishableKey).catch(() => {
      loaders.delete(publishableKey);
      return null;
    });
    loaders.set(publishableKey, p);
  }
  return p;
}

/**
 * Stripe mode: the Payment Element for the plan's SetupIntent. `confirmSetup` saves the card
 * (after 3-D Secure when the bank asks, returning to this page); Stripe's
 * `setup_intent.succeeded` then makes it the plan's card on the server, so nothing else is sent.
 * Stripe writes its own fields' words in the page's language.
 */
export function StripeCardSetup(props: { publishableKey: string; clientSecret: string; onSaved: () => void }) {
  const [stripePromise] = useState(() => stripeFor(props.publishableKey));
  const { locale } = useLocale();
  return (
    <Elements
      stripe={stripePromise}
      options={{ clientSecret: props.clientSecret, locale, appearance: { theme: "stripe", variables: { borderRadius: "8px" } } }}
    >
      <SetupForm onSaved={props.onSaved} />
    </Elements>
  );
}

function SetupForm({ onSaved }: { onSaved: () => void }) {
  const t = useTranslations("account");
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busyRef = useRef(false);

  async function onSubmit(ev: FormEvent<HTMLFormElement>) {
    ev.preventDefault();
    if (!stripe || !elements || !ready || busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setError(null);
    const result = await stripe.confirmSetup({
      elements,
      redirect: "if_required",
      confirmParams: { return_url: window.location.href.split("#")[0] },
    });
    busyRef.current = false;
    setBusy(false);
    if (result.error) {
      setError(
        result.error.type === "card_error" || result.error.type === "validation_error"
          ? (result.error.message ?? t("cardForm.checkDetails"))
          : t("cardForm.failed"),
      );
      return;
    }
    onSaved();
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={!ready || undefined}>
      <PaymentElement
        options={{ layout: "tabs" }}
        onReady={() => setReady(true)}
        onLoadError={() => {
          setReady(true);
          setError(t("cardForm.loadError"));
        }}
      />
      {!ready ? <p className="small muted">{t("cardForm.loadingSecure")}</p> : null}
      <p role="alert" className={styles.alert}>
        {error}
      </p>
      <Button type="submit" loading={busy} aria-disabled={!ready || undefined}>
        {t("cardForm.save")}
      </Button>
    </form>
  );
}
