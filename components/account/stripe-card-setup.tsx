"use client";

import { Elements, PaymentElement } from "@stripe/react-stripe-js";
import { useState } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import { getStripe, useStripeForm } from "@/components/stripe/stripe-form";
import { Button } from "@/components/ui/button";
import styles from "./plan-controls.module.css";

/**
 * Stripe mode: the Payment Element for the plan's SetupIntent. `confirmSetup` saves the card
 * (after 3-D Secure when the bank asks, returning to this page); Stripe's
 * `setup_intent.succeeded` then makes it the plan's card on the server, so nothing else is sent.
 * Stripe writes its own fields' words in the page's language.
 */
export function StripeCardSetup(props: { publishableKey: string; clientSecret: string; onSaved: () => void }) {
  const [stripePromise] = useState(() => getStripe(props.publishableKey));
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
  const { ready, busy, error, onSubmit, elementEvents } = useStripeForm(
    (stripe, elements) =>
      stripe.confirmSetup({
        elements,
        redirect: "if_required",
        confirmParams: { return_url: window.location.href.split("#")[0] },
      }),
    { checkDetails: t("cardForm.checkDetails"), failed: t("cardForm.failed"), loadError: t("cardForm.loadError") },
    onSaved,
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={!ready || undefined}>
      <PaymentElement options={{ layout: "tabs" }} {...elementEvents} />
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
