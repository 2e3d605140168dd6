"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from "react";
import { useTranslations } from "use-intl";
import { TextField } from "./fields";
import { confirmOutcome } from "./sandbox-confirm-outcome";
import styles from "./donate-form.module.css";

/** "4242424242424242" → "4242 4242 4242 4242" (groups of four, up to 19 digits). */
export function formatCardNumber(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** Luhn checksum, so a typo is caught before the request. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

function formatExpiry(raw: string): string {
  let d = raw.replace(/\D/g, "").slice(0, 4);
  if (d.length === 1 && d > "1") d = `0${d}`;
  return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
}

type Errors = { cardNumber?: string; expiry?: string; cvc?: string };

/** Each card field's element id (after the form's own) and what browsers may fill it with. */
const CARD_FIELDS = {
  cardNumber: { inputId: "card", autoComplete: "cc-number" },
  expiry: { inputId: "expiry", autoComplete: "cc-exp" },
  cvc: { inputId: "cvc", autoComplete: "cc-csc" },
} as const;

/**
 * The sandbox's stand-in for Stripe's Payment Element: no card data leaves this page except the
 * card number, which only decides the sandbox's outcome (4242… succeeds, 4000…0002 declines).
 * POST /api/sandbox/payments/confirm sends the processor events and answers the donation.
 */
export function SandboxCardForm({
  clientSecret,
  returnPath,
  payLabel,
  confirmPath = "/api/sandbox/payments/confirm",
  busyLabel,
  onConfirmed,
  replace = false,
}: {
  clientSecret: string;
  returnPath: string;
  payLabel: string;
  /** Where the card is confirmed: a payment by default; a saved card (POST /api/sandbox/setup-intents/confirm) for a plan's new card. */
  confirmPath?: string;
  busyLabel?: string;
  /** Called instead of going to `returnPath` once the card was accepted. */
  onConfirmed?: () => void;
  /** Go to `returnPath` in the current history entry's place (the payment page's, once paid). */
  replace?: boolean;
}) {
  const uid = useId();
  const router = useRouter();
  const t = useTranslations("donate.sandbox");
  const tDonate = useTranslations("donate");
  const [card, setCard] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvc, setCvc] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const cardRef = useRef<HTMLInputElement>(null);
  const expiryRef = useRef<HTMLInputElement>(null);
  const cvcRef = useRef<HTMLInputElement>(null);
  // Where the caret belongs after reformatting the card number: after this many digits.
  const caretDigits = useRef<number | null>(null);
  const pendingFocus = useRef<HTMLInputElement | null>(null);

  useLayoutEffect(() => {
    const input = cardRef.current;
    const n = caretDigits.current;
    if (!input || n === null || document.activeElement !== input) return;
    caretDigits.current = null;
    let pos = 0;
    for (let seen = 0; pos < input.value.length && seen < n; pos++) if (/\d/.test(input.value[pos])) seen++;
    input.setSelectionRange(pos, pos);
  }, [card]);

  useEffect(() => {
    const el = pendingFocus.current;
    pendingFocus.current = null;
    if (el) {
      el.focus();
      el.select();
    }
  });

  const digits = card.replace(/\D/g, "");

  function validate(): Errors {
    const e: Errors = {};
    if (digits.length === 0) e.cardNumber = t("cardRequired");
    else if (digits.length < 13 || !luhnValid(digits)) e.cardNumber = t("cardInvalid");
    const m = /^(\d{2}) \/ (\d{2})$/.exec(expiry);
    if (!m) e.expiry = t("expiryFormat");
    else {
      const month = Number(m[1]);
      const year = 2000 + Number(m[2]);
      const now = new Date();
      if (month < 1 || month > 12) e.expiry = t("expiryMonth");
      else if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) e.expiry = t("expired");
    }
    if (!/^\d{3,4}$/.test(cvc)) e.cvc = t("cvcInvalid");
    return e;
  }

  async function onSubmit(ev: FormEvent<HTMLFormElement>) {
    ev.preventDefault();
    if (busyRef.current) return;
    setFormError(null);
    const invalid = validate();
    setErrors(invalid);
    const first = (["cardNumber", "expiry", "cvc"] as const).find((k) => invalid[k]);
    if (first) {
      pendingFocus.current = { cardNumber: cardRef, expiry: expiryRef, cvc: cvcRef }[first].current;
      return;
    }
    busyRef.current = true;
    setBusy(true);
    let leaving = false;
    try {
      const res = await fetch(confirmPath, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ clientSecret, cardNumber: digits }),
      });
      const outcome = confirmOutcome(res.status, await res.json().catch(() => ({})));
      if (outcome.kind === "paid") {
        if (onConfirmed) onConfirmed();
        else {
          leaving = true;
          if (replace) router.replace(returnPath);
          else router.push(returnPath);
        }
      } else if (outcome.kind === "card") {
        setErrors({ cardNumber: "key" in outcome ? t(outcome.key) : outcome.text });
        pendingFocus.current = cardRef.current;
      } else setFormError("key" in outcome ? t(outcome.key) : outcome.text);
    } catch {
      setFormError(tDonate("submitError.unreachable"));
    } finally {
      // Leaving for the thank-you page: keep the button busy so it can't be pressed twice.
      if (!leaving) {
        busyRef.current = false;
        setBusy(false);
      }
    }
  }

  // A card field's label, digits keypad and autofill, and the props that tie it to its error.
  const field = (k: keyof Errors) => ({
    id: `${uid}-${CARD_FIELDS[k].inputId}`,
    label: t(k),
    autoComplete: CARD_FIELDS[k].autoComplete,
    error: errors[k],
    errorId: `${uid}-${k}-error`,
    inputMode: "numeric" as const,
  });
  const clearError = (k: keyof Errors) => {
    if (errors[k]) setErrors(({ [k]: _e, ...rest }) => rest);
  };

  return (
    <form className={styles.cardForm} onSubmit={onSubmit} noValidate>
      <div className={styles.sandboxBanner} id={`${uid}-sandbox`}>
        <p className={styles.sandboxTitle}>
          <span className={styles.sandboxBadge}>{t("badge")}</span> {t("title")}
        </p>
        <p className={styles.sandboxText}>{t.rich("text", { mono: (chunks) => <span className={styles.mono}>{chunks}</span> })}</p>
      </div>
      <fieldset className={styles.fieldset} aria-describedby={`${uid}-sandbox`}>
        <legend className={styles.legend}>{t("legend")}</legend>
        <TextField
          {...field("cardNumber")}
          ref={cardRef}
          mono
          placeholder="1234 1234 1234 1234"
          maxLength={23}
          value={card}
          onChange={(e) => {
            const input = e.target;
            const before = input.value.slice(0, input.selectionStart ?? input.value.length).replace(/\D/g, "").length;
            caretDigits.current = before;
            setCard(formatCardNumber(input.value.replace(/\D/g, "").slice(0, 19)));
            clearError("cardNumber");
          }}
        />
        <div className={styles.row2}>
          <TextField
            {...field("expiry")}
            ref={expiryRef}
            placeholder={t("expiryPlaceholder")}
            value={expiry}
            onChange={(e) => {
              const raw = e.target.value;
              const rawDigits = raw.replace(/\D/g, "");
              // Deleting only the " / " separator deletes the digit before it.
              const separatorOnly = raw.length < expiry.length && rawDigits === expiry.replace(/\D/g, "");
              setExpiry(formatExpiry(separatorOnly ? rawDigits.slice(0, -1) : raw));
              clearError("expiry");
            }}
          />
          <TextField
            {...field("cvc")}
            ref={cvcRef}
            placeholder={t("cvcPlaceholder")}
            maxLength={4}
            value={cvc}
            onChange={(e) => {
              setCvc(e.target.value.replace(/\D/g, "").slice(0, 4));
              clearError("cvc");
            }}
          />
        </div>
      </fieldset>
      <div className={styles.actions}>
        <div className={styles.alert} role="alert">
          {formError}
        </div>
        <button type="submit" className={styles.submit} aria-disabled={busy || undefined}>
          {busy ? (
            <>
              <span className={styles.spinner} aria-hidden="true" /> {busyLabel ?? tDonate("payment.processing")}
            </>
          ) : (
            payLabel
          )}
        </button>
      </div>
    </form>
  );
}
