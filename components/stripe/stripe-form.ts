"use client";

import { useElements, useStripe } from "@stripe/react-stripe-js";
// The pure entry loads Stripe.js when loadStripe is first called, not on import (the main entry
// injects the script as soon as any page's bundle imports it, sandbox mode included).
import { loadStripe } from "@stripe/stripe-js/pure";
import type { Stripe, StripeElements, StripeError } from "@stripe/stripe-js";
import { useRef, useState, type FormEvent } from "react";

// loadStripe once per key: Elements must receive the same promise on every render. A failed
// load (offline, script blocked) resolves to null and is forgotten, so a later mount retries.
const stripePromises = new Map<string, Promise<Stripe | null>>();
export function getStripe(publishableKey: string) {
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

/** What the form says when Stripe refuses: its own words for card and form problems, ours otherwise. */
export interface StripeFormMessages {
  checkDetails: string;
  failed: string;
  loadError: string;
}

/**
 * The state of a form around a Payment Element, inside `<Elements>`: `confirm` runs once per
 * submit (a second click while it runs is ignored); a Stripe error becomes the form's message,
 * success calls `onDone`. Spread `elementEvents` on the `<PaymentElement>`.
 */
export function useStripeForm(
  confirm: (stripe: Stripe, elements: StripeElements) => Promise<{ error?: StripeError }>,
  messages: StripeFormMessages,
  onDone?: () => void,
) {
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
    const result = await confirm(stripe, elements);
    busyRef.current = false;
    setBusy(false);
    if (result.error) {
      const e = result.error;
      setError(e.type === "card_error" || e.type === "validation_error" ? (e.message ?? messages.checkDetails) : messages.failed);
      return;
    }
    onDone?.();
  }

  const elementEvents = {
    onReady: () => setReady(true),
    onLoadError: () => {
      setReady(true);
      setError(messages.loadError);
    },
  };
  return { canSubmit: Boolean(stripe && elements && ready), ready, busy, error, onSubmit, elementEvents };
}
