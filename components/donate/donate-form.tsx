"use client";

import dynamic from "next/dynamic";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from "react";
import { coverFeeCents } from "@/lib/money";
import { INTERVAL_ADVERB, formatCount, formatMoney, parseAmountToCents } from "./format";
import { FieldError } from "./field-error";
import { LockIcon } from "./icons";
import { SandboxCardForm } from "./sandbox-card-form";
import { Turnstile, type TurnstileHandle } from "./turnstile";
import type { ApiErrorBody, CreatedDonation, DonateFormCampaign, PaymentConfig } from "./types";
import styles from "./donate-form.module.css";

// Stripe.js is loaded only in Stripe mode, and only once the donor reaches the payment step.
const StripePayment = dynamic(() => import("./stripe-payment").then((m) => m.StripePayment), {
  ssr: false,
  loading: () => <div className={styles.paymentSkeleton} aria-hidden="true" />,
});

/** The API's own limits (lib/schemas/donations.ts), checked here first so errors come sooner. */
const MAX_AMOUNT_CENTS = 100_000_000;
const MESSAGE_MAX = 1000;
const NAME_MAX = 100;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

type Frequency = "ONCE" | "MONTH" | "YEAR";
type Errors = Partial<Record<string, string>>;

/**
 * Fields that show their own error, in the order they appear, so "the first invalid field" is
 * the first on screen. Errors on any other key go to the alert above the button.
 */
const FIELD_ORDER = [
  "amount",
  "tickets",
  "recurringInterval",
  "firstName",
  "lastName",
  "email",
  "message",
  "dedication.honoreeName",
  "dedication.notifyEmail",
  "dedication.message",
  "captchaToken",
] as const;

export type DonateFormProps = {
  campaign: DonateFormCampaign;
  organizationName: string;
  currency: string;
  payment: PaymentConfig;
  /** Path of the thank-you page (`/o/:org/donate/:slug/thank-you`). */
  thankYouPath: string;
  /** Cloudflare Turnstile, when the server requires it: its site key and the page's CSP nonce. */
  captcha?: { siteKey: string; nonce?: string } | null;
};

export function DonateForm({ campaign, organizationName, currency, payment, thankYouPath, captcha }: DonateFormProps) {
  const uid = useId();
  const id = (name: string) => `${uid}-${name.replace(/\./g, "-")}`;

  const isEvent = campaign.type === "EVENT";
  const isMembership = campaign.type === "MEMBERSHIP";
  const amounts = campaign.suggestedAmounts;
  const minCents = Math.max(100, campaign.minAmountCents ?? 100);
  const ticketPrice = campaign.ticketPriceCents ?? 0;
  const ticketsLeft = campaign.ticketCapacity !== null ? Math.max(0, campaign.ticketCapacity - campaign.ticketsSold) : null;
  const perOrder = campaign.maxTicketsPerOrder;
  const maxTickets = Math.min(perOrder, ticketsLeft ?? perOrder);
  const frequencies: Frequency[] = isEvent
    ? []
    : isMembership
      ? ["MONTH", "YEAR"]
      : campaign.allowRecurring
        ? ["ONCE", "MONTH", "YEAR"]
        : [];
  const money = (cents: number, short = false) => formatMoney(cents, currency, { short });
  const currencySymbol = useMemo(
    () =>
      new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() })
        .formatToParts(0)
        .find((p) => p.type === "currency")?.value ?? "",
    [currency],
  );

  // The gift
  // Preselect the second suggested amount (the usual "most popular" slot) that meets the minimum.
  const [selected, setSelected] = useState<number | "custom">(() => {
    const eligible = amounts.filter((a) => a >= minCents);
    return eligible.length > 0 ? eligible[Math.min(1, eligible.length - 1)] : "custom";
  });
  const [customText, setCustomText] = useState("");
  const [frequency, setFrequency] = useState<Frequency>(isMembership ? "MONTH" : "ONCE");
  const [ticketsText, setTicketsText] = useState("1");
  // The donor
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");
  const [email, setEmail] = useState("");
  const [anonymous, setAnonymous] = useState(false);
  const [message, setMessage] = useState("");
  const [dedicate, setDedicate] = useState(false);
  const [dedicationType, setDedicationType] = useState<"IN_HONOR" | "IN_MEMORY">("IN_HONOR");
  const [honoreeName, setHonoreeName] = useState("");
  const [notifyEmail, setNotifyEmail] = useState("");
  const [dedicationMessage, setDedicationMessage] = useState("");
  const [coverFees, setCoverFees] = useState(false);
  // The captcha: a token is good for one request, so the widget is reset after each attempt.
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [captchaUnavailable, setCaptchaUnavailable] = useState(false);
  const turnstileRef = useRef<TurnstileHandle>(null);
  // Submission
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);
  const [created, setCreated] = useState<CreatedDonation | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const paymentHeadingRef = useRef<HTMLHeadingElement>(null);
  // Focus to move once React has rendered (an error message, the payment step): a function
  // run by the effect below, so the element exists and is announced with its new description.
  const pendingFocus = useRef<(() => void) | null>(null);
  useEffect(() => {
    const run = pendingFocus.current;
    pendingFocus.current = null;
    run?.();
  });

  const tickets = /^\d{1,3}$/.test(ticketsText) ? Number(ticketsText) : NaN;
  const parsedCustom = parseAmountToCents(customText);
  const amountCents: number | null = isEvent
    ? Number.isInteger(tickets) && tickets >= 1
      ? tickets * ticketPrice
      : null
    : selected === "custom"
      ? parsedCustom.ok && parsedCustom.cents > 0
        ? parsedCustom.cents
        : null
      : selected;
  const feeCents = amountCents !== null ? coverFeeCents(amountCents) : null;
  const totalCents = amountCents !== null ? amountCents + (coverFees ? feeCents! : 0) : null;
  const interval = frequency === "ONCE" ? null : frequency;
  const matchCents = campaign.matchingEnabled && amountCents !== null ? Math.floor((amountCents * campaign.matchingRatioPct) / 100) : null;

  function clearError(key: string) {
    if (errors[key]) setErrors(({ [key]: _removed, ...rest }) => rest);
  }

  function validate(): Errors {
    const e: Errors = {};
    if (isEvent) {
      if (!Number.isInteger(tickets) || tickets < 1) e.tickets = "Choose at least 1 ticket";
      else if (tickets > maxTickets)
        e.tickets =
          ticketsLeft !== null && ticketsLeft < perOrder
            ? `Only ${formatCount(ticketsLeft)} tickets are left`
            : `You can buy up to ${maxTickets} tickets at once`;
    } else if (selected !== "custom") {
      if (selected < minCents) e.amount = `The minimum gift is ${money(minCents)}`;
    } else {
      if (!parsedCustom.ok) e.amount = parsedCustom.error;
      else if (parsedCustom.cents < minCents) e.amount = `The minimum gift is ${money(minCents)}`;
      else if (parsedCustom.cents > MAX_AMOUNT_CENTS) e.amount = `The most you can give online is ${money(MAX_AMOUNT_CENTS, true)}`;
    }
    if (!firstName.trim()) e.firstName = "Enter your first name";
    else if (firstName.trim().length > NAME_MAX) e.firstName = `Use at most ${NAME_MAX} characters`;
    if (!lastName.trim()) e.lastName = "Enter your last name";
    else if (lastName.trim().length > NAME_MAX) e.lastName = `Use at most ${NAME_MAX} characters`;
    if (!email.trim()) e.email = "Enter your email address for the receipt";
    else if (!EMAIL_PATTERN.test(email.trim())) e.email = "Enter an email address like name@example.com";
    if (message.length > MESSAGE_MAX) e.message = `Use at most ${formatCount(MESSAGE_MAX)} characters`;
    if (dedicate) {
      if (!honoreeName.trim()) e["dedication.honoreeName"] = "Enter the name of the person you're honoring";
      if (notifyEmail.trim() && !EMAIL_PATTERN.test(notifyEmail.trim()))
        e["dedication.notifyEmail"] = "Enter an email address like name@example.com";
    }
    if (captcha && !captchaToken) {
      e.captchaToken = captchaUnavailable
        ? "The verification check couldn't load. Reload the page, or allow challenges.cloudflare.com, and try again."
        : "Complete the verification check above the button";
    }
    return e;
  }

  /** The element to focus for an error key: the input itself, or the checked radio of a group. */
  function focusTarget(key: string): HTMLElement | null {
    const form = formRef.current;
    if (!form) return null;
    if (key === "amount" && selected !== "custom") {
      return (
        form.querySelector<HTMLElement>(`input[name="${id("amount")}"]:checked`) ??
        form.querySelector<HTMLElement>(`input[name="${id("amount")}"]`)
      );
    }
    if (key === "recurringInterval") return form.querySelector<HTMLElement>(`input[name="${id("frequency")}"]:checked`);
    return document.getElementById(id(key));
  }

  function showErrors(e: Errors) {
    setErrors(e);
    const first = FIELD_ORDER.find((k) => e[k]);
    if (first) pendingFocus.current = () => focusTarget(first)?.focus();
  }

  /** A message about the whole form, announced by the alert region; focus stays on the button. */
  function showFormError(text: string) {
    setFormError(text);
  }

  async function onSubmit(ev: FormEvent<HTMLFormElement>) {
    ev.preventDefault();
    if (submittingRef.current) return;
    setFormError(null);
    const invalid = validate();
    if (Object.keys(invalid).length > 0) return showErrors(invalid);
    setErrors({});
    submittingRef.current = true;
    setSubmitting(true);
    const body = {
      campaignId: campaign.id,
      amount: amountCents,
      email: email.trim(),
      firstName: firstName.trim(),
      lastName: lastName.trim(),
      anonymous,
      message: message.trim() || null,
      dedication: dedicate
        ? {
            type: dedicationType,
            honoreeName: honoreeName.trim(),
            notifyEmail: notifyEmail.trim() || null,
            message: dedicationMessage.trim() || null,
          }
        : null,
      recurringInterval: interval,
      tickets: isEvent ? tickets : null,
      coverFees,
      ...(captcha ? { captchaToken } : {}),
    };
    try {
      const res = await fetch("/api/donations", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
      const json = (await res.json().catch(() => ({}))) as ApiErrorBody & Partial<CreatedDonation>;
      if (res.status === 201 && json.clientSecret && json.id) {
        setCreated(json as CreatedDonation);
        pendingFocus.current = () => paymentHeadingRef.current?.focus();
        return;
      }
      turnstileRef.current?.reset();
      handleCreateError(res, json);
    } catch {
      showFormError("We couldn't reach the server. Check your connection and try again.");
    } finally {
      submittingRef.current = false;
      setSubmitting(false);
    }
  }

  function handleCreateError(res: Response, json: ApiErrorBody) {
    if (res.status === 400 && json.details) {
      const fieldErrors = json.details.fieldErrors ?? {};
      const mapped: Errors = {};
      const unplaced: string[] = [...(json.details.formErrors ?? [])];
      for (const [key, messages] of Object.entries(fieldErrors)) {
        const text = humanize(key, messages?.[0] ?? "Check this field", money);
        const target = key === "amount" && isEvent ? "tickets" : key;
        if ((FIELD_ORDER as readonly string[]).includes(target) && fieldVisible(target)) mapped[target] ??= text;
        else unplaced.push(text);
      }
      if (unplaced.length > 0) setFormError(unplaced.join(" "));
      if (Object.keys(mapped).length > 0) showErrors(mapped);
      else showFormError(unplaced.join(" ") || "Please check the form and try again.");
      return;
    }
    if (res.status === 409) {
      showFormError(
        json.error === "Sold out"
          ? "Sorry, there aren't enough tickets left for this order. Try fewer tickets, or reload the page to see how many remain."
          : "This campaign isn't accepting donations right now. No payment was taken.",
      );
      return;
    }
    if (res.status === 429 && json.error === "Too many failed payments, try again later") {
      const minutes = Math.max(1, Math.ceil(Number(res.headers.get("Retry-After")) / 60) || 60);
      showFormError(
        `Several payments from your connection were declined recently, so new donations are paused for about ${minutes} minute${minutes === 1 ? "" : "s"}. No payment was taken.`,
      );
      return;
    }
    if (res.status === 429) {
      const wait = Number(res.headers.get("Retry-After"));
      showFormError(
        `Too many attempts in a short time. Please wait ${wait > 0 && wait < 3600 ? `${wait} second${wait === 1 ? "" : "s"}` : "a minute"} and try again.`,
      );
      return;
    }
    if (res.status === 404) {
      showFormError("This campaign can no longer be found. It may have been removed.");
      return;
    }
    showFormError(
      res.status >= 500 && json.error && json.error !== "Internal server error"
        ? `${json.error}. No payment was taken.`
        : "Something went wrong on our side. No payment was taken; please try again.",
    );
  }

  function fieldVisible(key: string): boolean {
    if (key === "amount") return !isEvent;
    if (key === "tickets") return isEvent;
    if (key === "recurringInterval") return frequencies.length > 0;
    if (key.startsWith("dedication.")) return dedicate;
    if (key === "captchaToken") return !!captcha;
    return true;
  }

  function describedBy(...ids: (string | false | null | undefined)[]) {
    const list = ids.filter(Boolean).join(" ");
    return list || undefined;
  }

  const errorId = (key: string) => `${id(key)}-error`;
  const invalidProps = (key: string, hintId?: string) => ({
    "aria-invalid": errors[key] ? (true as const) : undefined,
    "aria-describedby": describedBy(hintId, errors[key] && errorId(key)),
  });

  const giveVerb = isEvent ? "pay" : "give";
  const summary =
    totalCents === null ? (
      <>{isEvent ? "Choose how many tickets you need" : "Choose an amount to continue"}</>
    ) : (
      <>
        You&apos;ll {giveVerb} <strong className={styles.num}>{money(totalCents)}</strong>
        {interval ? ` ${INTERVAL_ADVERB[interval]}` : isEvent ? ` for ${tickets} ticket${tickets === 1 ? "" : "s"}` : ""}
      </>
    );

  // ---- Payment step ----
  if (created) {
    const returnPath = `${thankYouPath}?donation=${encodeURIComponent(created.id)}`;
    const chargeLabel = `${money(created.chargeAmountCents)}${created.recurringInterval ? ` ${INTERVAL_ADVERB[created.recurringInterval]}` : ""}`;
    return (
      <div className={styles.form}>
        <p className={styles.stepLabel}>Step 2 of 2</p>
        <h3 className={styles.stepHeading} ref={paymentHeadingRef} tabIndex={-1}>
          Payment
        </h3>
        <div className={styles.reviewBox}>
          <p className={styles.reviewText}>
            {isEvent ? (
              <>
                {created.tickets} ticket{created.tickets === 1 ? "" : "s"} to {campaign.title}:{" "}
              </>
            ) : (
              <>Your gift to {organizationName}: </>
            )}
            <strong className={styles.num}>{chargeLabel}</strong>
            {created.feeCents > 0 && <span className={styles.reviewNote}> (includes {money(created.feeCents)} to cover fees)</span>}
          </p>
          {!isEvent && (
            <button
              type="button"
              className={styles.linkButton}
              onClick={() => {
                setCreated(null);
                pendingFocus.current = () => formRef.current?.querySelector<HTMLElement>("input:checked, input")?.focus();
              }}
            >
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

  // ---- Details step ----
  return (
    <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-describedby={`${uid}-steps`}>
      <p className={styles.stepLabel} id={`${uid}-steps`}>
        Step 1 of 2
      </p>

      {isEvent ? (
        <div className={styles.field}>
          <label className={styles.label} htmlFor={id("tickets")}>
            Number of tickets
          </label>
          <div className={styles.stepper}>
            <button
              type="button"
              className={styles.stepperButton}
              aria-label="One ticket fewer"
              aria-controls={id("tickets")}
              // aria-disabled, not disabled: a disabled button would drop keyboard focus at the limit.
              aria-disabled={!(tickets > 1) || undefined}
              onClick={() => {
                if (!(tickets > 1)) return;
                setTicketsText(String(Math.max(1, (Number.isInteger(tickets) ? tickets : 2) - 1)));
                clearError("tickets");
              }}
            >
              <span aria-hidden="true">−</span>
            </button>
            <input
              id={id("tickets")}
              className={`${styles.input} ${styles.stepperInput}`}
              type="text"
              inputMode="numeric"
              pattern="[0-9]*"
              autoComplete="off"
              value={ticketsText}
              onChange={(e) => {
                setTicketsText(e.target.value.replace(/\D/g, "").slice(0, 3));
                clearError("tickets");
              }}
              {...invalidProps("tickets", id("tickets-hint"))}
            />
            <button
              type="button"
              className={styles.stepperButton}
              aria-label="One ticket more"
              aria-controls={id("tickets")}
              aria-disabled={(Number.isInteger(tickets) && tickets >= maxTickets) || undefined}
              onClick={() => {
                if (Number.isInteger(tickets) && tickets >= maxTickets) return;
                setTicketsText(String(Math.min(maxTickets, (Number.isInteger(tickets) ? tickets : 0) + 1)));
                clearError("tickets");
              }}
            >
              <span aria-hidden="true">+</span>
            </button>
          </div>
          <p className={styles.hint} id={id("tickets-hint")}>
            {money(ticketPrice)} each
            {ticketsLeft !== null && <> · {formatCount(ticketsLeft)} left</>}
          </p>
          <p className={styles.srOnly} aria-live="polite">
            {amountCents !== null ? `${tickets} ticket${tickets === 1 ? "" : "s"}, ${money(amountCents)}` : ""}
          </p>
          <FieldError id={errorId("tickets")} text={errors.tickets} />
        </div>
      ) : (
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>{isMembership ? "Choose your membership amount" : "Choose an amount"}</legend>
          {amounts.length > 0 && (
            <div
              className={styles.amountGrid}
              // Two or four amounts sit in two columns, anything else in rows of three.
              style={{
                gridTemplateColumns: `repeat(${amounts.length === 2 || amounts.length === 4 ? 2 : Math.min(3, amounts.length)}, minmax(0, 1fr))`,
              }}
            >
              {amounts.map((a) => (
                <div key={a} className={styles.option}>
                  <input
                    type="radio"
                    className={styles.radio}
                    id={`${id("amount")}-${a}`}
                    name={id("amount")}
                    value={a}
                    checked={selected === a}
                    onChange={() => {
                      setSelected(a);
                      setCustomText("");
                      clearError("amount");
                    }}
                    aria-describedby={selected !== "custom" && errors.amount ? errorId("amount") : undefined}
                  />
                  <label className={styles.optionLabel} htmlFor={`${id("amount")}-${a}`}>
                    {money(a, true)}
                  </label>
                </div>
              ))}
            </div>
          )}
          {campaign.allowCustomAmount && (
            <div className={styles.customAmount}>
              <label className={styles.label} htmlFor={id("amount")}>
                {amounts.length > 0 ? "Or enter another amount" : "Amount"}
              </label>
              <div className={`${styles.moneyInput} ${selected === "custom" ? styles.moneyInputActive : ""}`}>
                <span className={styles.moneySymbol} aria-hidden="true">
                  {currencySymbol}
                </span>
                <input
                  id={id("amount")}
                  className={styles.input}
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder="0.00"
                  value={customText}
                  onChange={(e) => {
                    // Typing picks the custom amount; merely tabbing through keeps the chosen button.
                    const text = e.target.value.slice(0, 20);
                    setCustomText(text);
                    if (text.trim() !== "" || amounts.length === 0) setSelected("custom");
                    clearError("amount");
                  }}
                  {...invalidProps("amount", id("amount-hint"))}
                  aria-invalid={selected === "custom" && errors.amount ? true : undefined}
                />
              </div>
              <p className={styles.hint} id={id("amount-hint")}>
                Minimum {money(minCents)}
              </p>
            </div>
          )}
          <FieldError id={errorId("amount")} text={errors.amount} />
        </fieldset>
      )}

      {frequencies.length > 0 && (
        <fieldset className={styles.fieldset}>
          <legend className={styles.legend}>{isMembership ? "Billing" : "How often?"}</legend>
          <div className={styles.segmented}>
            {frequencies.map((f) => (
              <div key={f} className={styles.option}>
                <input
                  type="radio"
                  className={styles.radio}
                  id={`${id("frequency")}-${f}`}
                  name={id("frequency")}
                  value={f}
                  checked={frequency === f}
                  onChange={() => {
                    setFrequency(f);
                    clearError("recurringInterval");
                  }}
                  aria-describedby={describedBy(
                    frequency !== "ONCE" && id("frequency-hint"),
                    errors.recurringInterval && errorId("recurringInterval"),
                  )}
                />
                <label className={styles.optionLabel} htmlFor={`${id("frequency")}-${f}`}>
                  {f === "ONCE" ? "One-time" : f === "MONTH" ? "Monthly" : "Yearly"}
                </label>
              </div>
            ))}
          </div>
          <p className={styles.hint} id={id("frequency-hint")}>
            {interval ? `Charged today, then every ${interval === "MONTH" ? "month" : "year"}.` : "Charged once, today."}
          </p>
          <FieldError id={errorId("recurringInterval")} text={errors.recurringInterval} />
        </fieldset>
      )}

      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>Your details</legend>
        <div className={styles.row2}>
          <TextField
            id={id("firstName")}
            label="First name"
            autoComplete="given-name"
            value={firstName}
            onChange={(v) => {
              setFirstName(v);
              clearError("firstName");
            }}
            error={errors.firstName}
            errorId={errorId("firstName")}
            maxLength={NAME_MAX}
          />
          <TextField
            id={id("lastName")}
            label="Last name"
            autoComplete="family-name"
            value={lastName}
            onChange={(v) => {
              setLastName(v);
              clearError("lastName");
            }}
            error={errors.lastName}
            errorId={errorId("lastName")}
            maxLength={NAME_MAX}
          />
        </div>
        <TextField
          id={id("email")}
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={email}
          onChange={(v) => {
            setEmail(v);
            clearError("email");
          }}
          error={errors.email}
          errorId={errorId("email")}
          hint="We'll send your receipt here."
          maxLength={320}
        />
        <Checkbox
          id={id("anonymous")}
          checked={anonymous}
          onChange={setAnonymous}
          label="Give anonymously"
          hint={
            campaign.showDonorRoll
              ? `Your name won't appear on this page; ${organizationName} will still see it for your receipt.`
              : `${organizationName} will still see your name for your receipt.`
          }
        />
        <div className={styles.field}>
          <label className={styles.label} htmlFor={id("message")}>
            Message <span className={styles.optional}>(optional)</span>
          </label>
          <textarea
            id={id("message")}
            className={`${styles.input} ${styles.textarea}`}
            rows={3}
            maxLength={MESSAGE_MAX}
            value={message}
            onChange={(e) => {
              setMessage(e.target.value);
              clearError("message");
            }}
            {...invalidProps("message", id("message-hint"))}
          />
          <p className={`${styles.hint} ${styles.counterRow}`} id={id("message-hint")}>
            <span>{campaign.showDonorRoll && !anonymous ? "Shown with your gift on this page." : `Shared with ${organizationName}.`}</span>
            <span className={`${styles.num} ${message.length >= MESSAGE_MAX - 50 ? styles.counterNear : ""}`}>
              {formatCount(message.length)} / {formatCount(MESSAGE_MAX)}
            </span>
          </p>
          <FieldError id={errorId("message")} text={errors.message} />
        </div>
      </fieldset>

      {!isEvent && (
        <div className={styles.fieldset}>
          <Checkbox
            id={id("dedicate")}
            checked={dedicate}
            onChange={setDedicate}
            label="Dedicate this gift to someone"
            hint="In honor or in memory of a person you choose."
            controls={id("dedication")}
          />
          {dedicate && (
            <fieldset className={`${styles.fieldset} ${styles.nested}`} id={id("dedication")}>
              <legend className={styles.srOnly}>Dedication</legend>
              <div className={styles.segmented} role="radiogroup" aria-label="Dedication type">
                {(["IN_HONOR", "IN_MEMORY"] as const).map((t) => (
                  <div key={t} className={styles.option}>
                    <input
                      type="radio"
                      className={styles.radio}
                      id={`${id("dedication-type")}-${t}`}
                      name={id("dedication-type")}
                      checked={dedicationType === t}
                      onChange={() => setDedicationType(t)}
                    />
                    <label className={styles.optionLabel} htmlFor={`${id("dedication-type")}-${t}`}>
                      {t === "IN_HONOR" ? "In honor of" : "In memory of"}
                    </label>
                  </div>
                ))}
              </div>
              <TextField
                id={id("dedication.honoreeName")}
                label={dedicationType === "IN_HONOR" ? "Name of the person you're honoring" : "Name of the person you're remembering"}
                autoComplete="off"
                value={honoreeName}
                onChange={(v) => {
                  setHonoreeName(v);
                  clearError("dedication.honoreeName");
                }}
                error={errors["dedication.honoreeName"]}
                errorId={errorId("dedication.honoreeName")}
                maxLength={140}
              />
              <TextField
                id={id("dedication.notifyEmail")}
                label={
                  <>
                    Let someone know by email <span className={styles.optional}>(optional)</span>
                  </>
                }
                type="email"
                inputMode="email"
                autoComplete="off"
                value={notifyEmail}
                onChange={(v) => {
                  setNotifyEmail(v);
                  clearError("dedication.notifyEmail");
                }}
                error={errors["dedication.notifyEmail"]}
                errorId={errorId("dedication.notifyEmail")}
                hint="We'll email them that a gift was made in this name."
                maxLength={320}
              />
              <div className={styles.field}>
                <label className={styles.label} htmlFor={id("dedication.message")}>
                  Note for them <span className={styles.optional}>(optional)</span>
                </label>
                <textarea
                  id={id("dedication.message")}
                  className={`${styles.input} ${styles.textarea}`}
                  rows={2}
                  maxLength={MESSAGE_MAX}
                  value={dedicationMessage}
                  onChange={(e) => {
                    setDedicationMessage(e.target.value);
                    clearError("dedication.message");
                  }}
                  {...invalidProps("dedication.message")}
                />
                <FieldError id={errorId("dedication.message")} text={errors["dedication.message"]} />
              </div>
            </fieldset>
          )}
        </div>
      )}

      <Checkbox
        id={id("coverFees")}
        checked={coverFees}
        onChange={setCoverFees}
        label={
          feeCents !== null ? (
            <>
              Add <span className={styles.num}>{money(feeCents)}</span> to cover card fees
            </>
          ) : (
            "Cover the card fees"
          )
        }
        hint={`So ${organizationName} receives ${amountCents !== null ? `the full ${money(amountCents)}` : "your whole gift"}.`}
        reserveHint
      />

      {captcha && (
        <div className={styles.field} id={id("captchaToken")} tabIndex={-1} aria-describedby={errors.captchaToken ? errorId("captchaToken") : undefined}>
          <Turnstile
            ref={turnstileRef}
            siteKey={captcha.siteKey}
            nonce={captcha.nonce}
            onToken={(token) => {
              setCaptchaToken(token);
              if (token) clearError("captchaToken");
            }}
            onUnavailable={() => setCaptchaUnavailable(true)}
          />
          <FieldError id={errorId("captchaToken")} text={errors.captchaToken} />
        </div>
      )}

      <div className={styles.summary}>
        <p className={styles.summaryLine}>{summary}</p>
        {campaign.matchingEnabled && (
          <p className={styles.matchLine}>
            {matchCents !== null && matchCents > 0 ? (
              <>
                <strong className={styles.num}>+{money(matchCents)}</strong> matched
                {campaign.matchingOrgName ? ` by ${campaign.matchingOrgName}` : ""} while funds last
              </>
            ) : (
              <>Gifts are matched while matching funds last</>
            )}
          </p>
        )}
      </div>

      <div className={styles.actions}>
        {/* Always in the page, so assistive technology announces the text when it appears. */}
        <div className={styles.alert} role="alert">
          {formError}
        </div>
        {/* aria-disabled rather than disabled: the button keeps focus while the request runs. */}
        <button type="submit" className={styles.submit} aria-disabled={submitting || undefined}>
          {submitting ? (
            <>
              <span className={styles.spinner} aria-hidden="true" /> Saving your gift…
            </>
          ) : (
            "Continue to payment"
          )}
        </button>
      </div>
      <p className={styles.secureNote}>
        <LockIcon /> Secure payment. You&apos;ll enter your card on the next step.
      </p>
    </form>
  );
}

/** Server messages in a donor's words where the API speaks in cents or in schema terms. */
function humanize(key: string, text: string, money: (c: number, short?: boolean) => string): string {
  const min = /greater than or equal to (\d+)$/.exec(text);
  if (key === "amount" && min) return `The minimum gift is ${money(Number(min[1]))}`;
  if (key === "amount" && text.startsWith("Choose one of the suggested amounts")) return "Choose one of the suggested amounts";
  if (key === "amount" && /less than or equal/.test(text)) return "That amount is too large to give online";
  if (text === "Required") return "This field is required";
  const max = /at most (\d+) character/.exec(text);
  if (max) return `Use at most ${formatCount(Number(max[1]))} characters`;
  if (/email/i.test(text) || /invalid/i.test(text))
    return key.toLowerCase().includes("email") ? "Enter an email address like name@example.com" : text;
  return text;
}

function TextField(props: {
  id: string;
  label: ReactNode;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  errorId: string;
  hint?: string;
  type?: "text" | "email";
  inputMode?: "text" | "email";
  autoComplete: string;
  maxLength: number;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  const describedBy = [hintId, props.error && props.errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={props.id}>
        {props.label}
      </label>
      <input
        id={props.id}
        className={styles.input}
        type={props.type ?? "text"}
        inputMode={props.inputMode}
        autoComplete={props.autoComplete}
        spellCheck={props.type === "email" ? false : undefined}
        maxLength={props.maxLength}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
      />
      {props.hint && (
        <p className={styles.hint} id={hintId}>
          {props.hint}
        </p>
      )}
      <FieldError id={props.errorId} text={props.error} />
    </div>
  );
}

function Checkbox(props: {
  id: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  label: ReactNode;
  hint?: string;
  controls?: string;
  /** Keep two lines for a hint whose text changes with the amount, so nothing below moves. */
  reserveHint?: boolean;
}) {
  const hintId = props.hint ? `${props.id}-hint` : undefined;
  return (
    <div className={styles.checkRow}>
      <input
        id={props.id}
        type="checkbox"
        className={styles.checkbox}
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
        aria-describedby={hintId}
        aria-controls={props.controls}
        aria-expanded={props.controls ? props.checked : undefined}
      />
      <div>
        <label htmlFor={props.id} className={styles.checkLabel}>
          {props.label}
        </label>
        {props.hint && (
          <p className={`${styles.hint} ${props.reserveHint ? styles.reserve2 : ""}`} id={hintId}>
            {props.hint}
          </p>
        )}
      </div>
    </div>
  );
}
