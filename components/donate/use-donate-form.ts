"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import { intlTag } from "@/lib/i18n/locales";
import { coverFeeCents, currencyDecimals, formatMoney } from "@/lib/money";
import { monthlyUpsellCents, offersMonthlyUpsell } from "@/lib/monthly-upsell";
import {
  FIELD_ORDER,
  amountCentsOf,
  amountValueOf,
  campaignLimits,
  donateFormSchema,
  donationRequestBody,
  initialValues,
  withQuery,
  ticketCount,
  type DonateFormValues,
} from "./donate-schema";
import { donateProblems } from "./donate-problems";
import { hasProblem, useFormValues, type FieldProblems, type TextPath } from "./form-values";
import { donateWording } from "./issue-words";
import { IN_PROGRESS, postDonation } from "./post-donation";
import { endPaymentAttempt, paymentAttempt } from "./payment-attempt";
import { fieldVisible, placeServerErrors } from "./server-problems";
import { createFailureText } from "./submit-errors";
import type { TurnstileHandle } from "./turnstile";
import type { ApiErrorBody, CreatedDonation, DonateFormCampaign } from "./types";

export type DonateFormOptions = {
  campaign: DonateFormCampaign;
  currency: string;
  /** Cloudflare Turnstile, when the server requires it. */
  captcha: boolean;
  /** The form as the server last answered it (the donate page posts to itself): its values, problems, text above the button and monthly offer. */
  initial?: DonateFormAnswer;
};

/** The donate form's state as the server answers a post of it, which the form renders from. */
export type DonateFormAnswer = { values: DonateFormValues; problems: FieldProblems; formError: string | null; offer: number | null };

/**
 * The donate form's state: its values and their problems (checked with the API's rules), the
 * request that creates the donation, and the payment step it leads to.
 * Focus follows the donor: to the first invalid field, then to the payment step's heading.
 */
export function useDonateForm({ campaign, currency, captcha, initial }: DonateFormOptions) {
  const uid = useId();
  const limits = campaignLimits(campaign);
  const isEvent = campaign.type === "EVENT";
  const { locale } = useLocale();
  const tag = intlTag(locale);
  const t = useTranslations("donate");
  const tErrors = useTranslations("donate.errors");
  const money = (cents: number, short = false) => formatMoney(cents, currency, { short, locale: tag });
  // Whole thousands read better without cents ("$1,000,000"); smaller limits keep them ("$5.00").
  const wording = donateWording(tErrors, (c) => money(c, c >= 100_000), tag);

  // The captcha: a token is good for one request, so the widget is reset after each attempt.
  const [captchaUnavailable, setCaptchaUnavailable] = useState(false);
  const captchaUnavailableRef = useRef(false);
  const turnstileRef = useRef<TurnstileHandle>(null);

  // Errors appear on submit and leave as their field is edited, until the next submit.
  const form = useFormValues(
    () => initial?.values ?? initialValues(campaign),
    donateProblems(
      (values: DonateFormValues) =>
        donateFormSchema(campaign, values, { captcha, captchaUnavailable: captchaUnavailableRef.current, locale: tag }),
      wording,
    ),
    initial?.problems,
  );
  const { values, setValue } = form;

  const [formError, setFormError] = useState<string | null>(initial?.formError ?? null);
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);
  const [created, setCreated] = useState<CreatedDonation | null>(null);
  // Focus to move once React has rendered (an error message, the payment step), so the element
  // exists and is announced with its new description.
  const pendingFocus = useRef<(() => void) | null>(null);
  useEffect(() => {
    const run = pendingFocus.current;
    pendingFocus.current = null;
    run?.();
  });

  const id = (name: string) => `${uid}-${name.replace(/\./g, "-")}`;
  const errorId = (key: string) => `${id(key)}-error`;
  const errorOf = (key: string): string | undefined => form.problems[key]?.message;
  /** A field was edited: its error goes until the next submit. */
  const edited = (key: string) => form.clearProblem(key);
  /** A text input bound to its value, its error cleared as it is edited. */
  const register = (key: TextPath<DonateFormValues>) => form.bind(key, () => edited(key));
  const describedBy = (...ids: (string | false | null | undefined)[]) => ids.filter(Boolean).join(" ") || undefined;
  const invalidProps = (key: string, hintId?: string) => ({
    "aria-invalid": errorOf(key) ? (true as const) : undefined,
    "aria-describedby": describedBy(hintId, errorOf(key) && errorId(key)),
  });

  const amountCents = amountCentsOf(values, campaign, tag);
  const feeCents = amountCents !== null ? coverFeeCents(amountCents) : null;
  const totalCents = amountCents !== null ? amountCents + (values.coverFees ? feeCents! : 0) : null;
  const interval = values.recurringInterval === "ONCE" ? null : values.recurringInterval;
  const matchCents = campaign.matchingEnabled && amountCents !== null ? Math.floor((amountCents * campaign.matchingRatioPct) / 100) : null;
  const tickets = ticketCount(values.tickets);

  /** The element to focus for an error key: the input itself, or the checked radio of a group. */
  function focusTarget(key: string): HTMLElement | null {
    const el = document.getElementById(id("form"));
    if (!el) return null;
    if (key === "amount" && values.amount.choice !== "custom") {
      return el.querySelector<HTMLElement>('input[name="amount"]:checked') ?? el.querySelector<HTMLElement>('input[name="amount"]');
    }
    if (key === "recurringInterval") return el.querySelector<HTMLElement>('input[name="recurringInterval"]:checked');
    return document.getElementById(id(key));
  }

  function focusFirst(keys: string[]) {
    const first = FIELD_ORDER.find((k) => keys.includes(k));
    if (first) pendingFocus.current = () => focusTarget(first)?.focus();
  }

  /** A 400 from the API: each field's first problem next to it, worded from its code; the rest above the button. */
  function showServerErrors(details: NonNullable<ApiErrorBody["details"]>) {
    const { placed, formError } = placeServerErrors(
      details,
      wording,
      (key) => fieldVisible(key, campaign, values, captcha),
      t("submitError.checkForm"),
    );
    for (const [key, text] of Object.entries(placed)) form.setProblem(key, { type: "server", message: text });
    setFormError(formError);
    focusFirst(Object.keys(placed));
  }

  async function send(v: DonateFormValues) {
    setSubmitting(true);
    try {
      // One Idempotency-Key per attempt, reused by the retries below and by a resubmit of the same gift.
      const attempt = paymentAttempt(campaign.id, donationRequestBody(v, campaign, captcha, locale));
      const answer = await postDonation(attempt);
      if (!answer) {
        setFormError(t("submitError.unreachable"));
        return;
      }
      const { res, json } = answer;
      if (res.status === 201 && json.clientSecret && json.id) {
        setCreated(json as CreatedDonation);
        pendingFocus.current = () => document.getElementById(id("payment"))?.focus();
        return;
      }
      // A refusal settles the attempt (the server keeps it under the key): the next try is a new one.
      if (res.status < 500 && !(res.status === 409 && json.error === IN_PROGRESS)) endPaymentAttempt(campaign.id);
      turnstileRef.current?.reset();
      if (res.status === 400 && json.details) showServerErrors(json.details);
      else setFormError(createFailureText({ status: res.status, retryAfter: res.headers.get("Retry-After") }, json, t));
    } finally {
      setSubmitting(false);
    }
  }

  // The monthly upsell: offered once, after a valid one-time choice, before the gift is created.
  const [offer, setOffer] = useState<number | null>(initial?.offer ?? null);
  const upsellCents = (v: DonateFormValues): number | null => {
    if (!offersMonthlyUpsell(campaign) || v.recurringInterval !== "ONCE" || v.upsell !== null) return null;
    const cents = amountCentsOf(v, campaign, tag);
    return cents === null ? null : monthlyUpsellCents(cents, campaign.suggestedAmounts, limits.minCents, 10 ** currencyDecimals(currency));
  };

  // A reminder's link reopens the same gift: `?amount=` (minor units) and `?frequency=`.
  useEffect(() => {
    const reopened = withQuery(form.getValues(), new URLSearchParams(window.location.search), campaign, tag);
    setValue("amount", reopened.amount);
    setValue("recurringInterval", reopened.recurringInterval);
    // Once, on the page's first render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const validateAndSend = () =>
    form.submit(
      // The check only proves the values pass; the request carries what was typed.
      (v) => {
        const monthly = upsellCents(v);
        if (monthly !== null) {
          setValue("upsell", "OFFERED");
          setOffer(monthly);
          pendingFocus.current = () => document.getElementById(id("upsell"))?.focus();
          return;
        }
        return send(v);
      },
      (problems) => focusFirst(FIELD_ORDER.filter((k) => hasProblem(problems, k))),
    );

  const state = {
    campaign,
    register,
    values,
    limits,
    isEvent,
    money,
    t,
    locale: tag,
    ids: { id, errorId, describedBy, invalidProps },
    errorOf,
    edited,
    setValue,
    amountCents,
    feeCents,
    totalCents,
    interval,
    matchCents,
    tickets,
    formError,
    submitting,
    created,
    captchaUnavailable,
    /** The monthly gift offered (minor units) while the offer is shown; null otherwise. */
    offer,
  };

  // Apart from what renders, as they reach for refs (focus, the captcha widget, the in-flight guard).
  const actions = {
    /** The Turnstile widget's handle, to reset it after each attempt. */
    setTurnstile: (handle: TurnstileHandle | null) => {
      turnstileRef.current = handle;
    },
    onCaptchaToken: (token: string | null) => {
      setValue("captchaToken", token);
      if (token) edited("captchaToken");
    },
    onCaptchaUnavailable: () => {
      captchaUnavailableRef.current = true;
      setCaptchaUnavailable(true);
    },
    onSubmit: async (ev: FormEvent<HTMLFormElement>) => {
      ev.preventDefault();
      if (submittingRef.current) return;
      submittingRef.current = true;
      setFormError(null);
      try {
        await validateAndSend();
      } finally {
        submittingRef.current = false;
      }
    },
    /** Back from the payment step to the gift, focus on the chosen amount. */
    /** The monthly offer taken: the gift becomes the smaller monthly one. */
    acceptOffer: async () => {
      if (offer === null || submittingRef.current) return;
      submittingRef.current = true;
      const amount = amountValueOf(offer, campaign, tag);
      setValue("amount", amount);
      setValue("recurringInterval", "MONTH");
      setValue("upsell", "ACCEPTED");
      setOffer(null);
      try {
        await send({ ...form.getValues(), amount, recurringInterval: "MONTH", upsell: "ACCEPTED" });
      } finally {
        submittingRef.current = false;
      }
    },
    /** The monthly offer declined: the one-time gift as chosen. */
    declineOffer: async () => {
      if (offer === null || submittingRef.current) return;
      submittingRef.current = true;
      setValue("upsell", "DECLINED");
      setOffer(null);
      try {
        await send({ ...form.getValues(), upsell: "DECLINED" });
      } finally {
        submittingRef.current = false;
      }
    },
    changeGift: () => {
      setCreated(null);
      pendingFocus.current = () => document.getElementById(id("form"))?.querySelector<HTMLElement>("input:checked, input")?.focus();
    },
  };

  return { state, actions };
}

export type DonateFormState = ReturnType<typeof useDonateForm>["state"];
