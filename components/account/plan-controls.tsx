"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslations } from "use-intl";
import type { IssueCode } from "@/components/forms/issue-text";
import { SandboxCardForm } from "@/components/donate/sandbox-card-form";
import { useLocale } from "@/components/i18n/provider";
import { Button } from "@/components/ui/button";
import { intlTag } from "@/lib/i18n/locales";
import { formatMoney, minimumDonationMinor, minorToInput, parseMoney } from "@/lib/money";
import type { RecurringInterval } from "@/lib/schemas/donations";
import { amountProblemText } from "./amount-input";
import styles from "./plan-controls.module.css";
import { StripeCardSetup } from "./stripe-card-setup";

/** What the controls need of a plan (the donor API's DonorRecurringPlan). */
export type ControlledPlan = {
  id: string;
  campaignTitle: string;
  amount: number;
  currency: string;
  interval: RecurringInterval;
  status: "INCOMPLETE" | "ACTIVE" | "PAST_DUE" | "CANCELED";
};

type Panel = "amount" | "card" | "cancel" | null;
type Setup = { mode: "stripe" | "sandbox"; clientSecret: string; publishableKey: string | null };
/** Why a call failed: ours to word (`problem`), else the API's own sentence (`message`, shown as it came). */
type Failure = {
  status: number;
  problem: "signedOut" | "tooMany" | "serverError" | "failed" | "offline" | null;
  message: string;
  fieldErrors: Record<string, string[]>;
  codes: Record<string, IssueCode[]>;
};

/** A call to the donor API from the account page (same origin: the donor cookie rides along). */
async function donorApi<T>(
  method: "POST" | "PATCH",
  path: string,
  body?: unknown,
): Promise<{ ok: true; data: T } | ({ ok: false } & Failure)> {
  try {
    const res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: { Accept: "application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json().catch(() => ({}));
    if (res.ok) return { ok: true, data: json as T };
    const message = typeof json.error === "string" ? json.error : "";
    const problem =
      res.status === 401 ? "signedOut" : res.status === 429 ? "tooMany" : res.status >= 500 ? "serverError" : message ? null : "failed";
    return {
      ok: false,
      status: res.status,
      problem,
      message,
      fieldErrors: json.details?.fieldErrors ?? {},
      codes: json.details?.codes ?? {},
    };
  } catch {
    return { ok: false, status: 0, problem: "offline", message: "", fieldErrors: {}, codes: {} };
  }
}

/** A failed call's sentence for the donor. */
function useFailureText() {
  const t = useTranslations("account");
  return (f: Failure) => (f.problem ? t(`planControls.${f.problem}`) : `${f.message.replace(/\.$/, "")}.`);
}

/** Money in the page's language. */
function useMoney(currency: string) {
  const { locale } = useLocale();
  return (minor: number) => formatMoney(minor, currency, { locale: intlTag(locale) });
}

/**
 * A running plan's controls on the donor's account page: change the amount (from the next
 * charge on), replace the card (Stripe's Payment Element, or the sandbox card form), and cancel
 * after a confirmation step. One panel is open at a time; opening one moves the focus into it,
 * closing it returns the focus to its button; outcomes are announced in the plan's status line.
 */
export function PlanControls({ plan, orgSlug }: { plan: ControlledPlan; orgSlug: string }) {
  const t = useTranslations("account");
  const money = useMoney(plan.currency);
  const uid = useId();
  const router = useRouter();
  const [panel, setPanel] = useState<Panel>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const triggers = {
    amount: useRef<HTMLButtonElement>(null),
    card: useRef<HTMLButtonElement>(null),
    cancel: useRef<HTMLButtonElement>(null),
  };
  const focusBack = useRef<Panel>(null);
  const base = `/api/donor/orgs/${encodeURIComponent(orgSlug)}/recurring-plans/${encodeURIComponent(plan.id)}`;
  const running = plan.status === "ACTIVE" || plan.status === "PAST_DUE";

  useEffect(() => {
    const back = focusBack.current;
    if (panel === null && back) {
      focusBack.current = null;
      triggers[back].current?.focus();
    }
  });

  // A plan that stopped (canceled here a moment ago) keeps only its status line.
  if (!running) {
    return (
      <p className={styles.notice} role="status">
        {notice}
      </p>
    );
  }

  const open = (p: Exclude<Panel, null>) => {
    setNotice(null);
    setPanel((cur) => (cur === p ? null : p));
  };
  const close = (message: string | null = null) => {
    if (panel) focusBack.current = panel;
    setPanel(null);
    if (message) setNotice(message);
  };

  return (
    <div className={styles.controls}>
      <div className={styles.actions}>
        {(
          [
            ["amount", t("planControls.changeAmount")],
            ["card", t("planControls.replaceCard")],
            ["cancel", t("planControls.cancelGift")],
          ] as const
        ).map(([p, label]) => (
          <Button
            key={p}
            ref={triggers[p]}
            variant={p === "cancel" ? "danger-outline" : "secondary"}
            size="small"
            aria-expanded={panel === p}
            aria-controls={panel === p ? `${uid}-${p}` : undefined}
            onClick={() => open(p)}
          >
            {label}
          </Button>
        ))}
      </div>
      {panel === "amount" ? (
        <AmountForm
          id={`${uid}-amount`}
          plan={plan}
          path={base}
          onDone={(amount) => {
            close(t(`planControls.amountChanged.${plan.interval}`, { amount: money(amount) }));
            router.refresh();
          }}
          onCancel={() => close()}
        />
      ) : null}
      {panel === "card" ? (
        <CardPanel
          id={`${uid}-card`}
          path={`${base}/payment-method`}
          onDone={() => close(t("planControls.cardSaved"))}
          onCancel={() => close()}
        />
      ) : null}
      {panel === "cancel" ? (
        <CancelPanel
          id={`${uid}-cancel`}
          plan={plan}
          path={`${base}/cancel`}
          onDone={() => {
            close(null);
            setNotice(t(`planControls.canceled.${plan.interval}`));
            router.refresh();
          }}
          onCancel={() => close()}
        />
      ) : null}
      <p className={styles.notice} role="status">
        {notice}
      </p>
    </div>
  );
}

/** What a panel that opens under a plan is given: the plan, its API path, and what to do when it closes. */
type PlanPanelProps<Done extends unknown[] = []> = {
  id: string;
  plan: ControlledPlan;
  path: string;
  onDone: (...result: Done) => void;
  onCancel: () => void;
};

function AmountForm({ id, plan, path, onDone, onCancel }: PlanPanelProps<[amount: number]>) {
  const t = useTranslations("account");
  const tForm = useTranslations("account.amountForm");
  const failureText = useFailureText();
  const { locale } = useLocale();
  const money = useMoney(plan.currency);
  const tag = intlTag(locale);
  const [text, setText] = useState(() => minorToInput(plan.amount, plan.currency, { locale: tag }));
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);

  /** The API's word on the amount (its issue codes), in the page's language where we know the code. */
  const issueText = (code: IssueCode | undefined, fallback: string): string => {
    const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);
    const min = num(code?.minimum);
    const max = num(code?.maximum);
    const values = Array.isArray(code?.values) ? (code.values as unknown[]).filter((v): v is number => typeof v === "number") : null;
    switch (code?.code) {
      case "not_a_suggested_amount":
        return values?.length ? t("amountForm.chooseOneOf", { amounts: values.map(money).join(", ") }) : fallback;
      case "too_small":
      case "amount_below_minimum":
        return min === null ? fallback : t("amountForm.minimum", { amount: money(min) });
      case "too_big":
        return max === null ? fallback : t("amountForm.maximum", { amount: money(max) });
      case "invalid_type":
        return t("amountForm.required");
      default:
        return fallback;
    }
  };

  async function onSubmit(ev: FormEvent<HTMLFormElement>) {
    ev.preventDefault();
    if (busy) return;
    setFormError(null);
    const parsed = parseMoney(text, plan.currency, { locale: tag });
    const fail = (message: string) => {
      setError(message);
      input.current?.focus();
    };
    if (!parsed.ok) return fail(amountProblemText(parsed, plan.currency, tag, tForm));
    if (parsed.minor === null) return fail(t("amountForm.required"));
    const minimum = minimumDonationMinor(plan.currency);
    if (parsed.minor < minimum) return fail(t("amountForm.minimum", { amount: money(minimum) }));
    setError(null);
    setBusy(true);
    const res = await donorApi<{ amount: number }>("PATCH", path, { amount: parsed.minor });
    setBusy(false);
    if (res.ok) return onDone(res.data.amount);
    const code = res.codes.amount?.[0];
    if (res.fieldErrors.amount?.length || code) return fail(issueText(code, res.fieldErrors.amount?.[0] ?? t("amountForm.check")));
    setFormError(failureText(res));
  }

  const errId = `${id}-error`;
  return (
    <form
      id={id}
      className={styles.panel}
      onSubmit={onSubmit}
      noValidate
      aria-label={t("amountForm.formLabel", { campaign: plan.campaignTitle })}
    >
      <div className="field">
        <label htmlFor={`${id}-input`}>{t(`amountForm.label.${plan.interval}`, { currency: plan.currency.toUpperCase() })}</label>
        <input
          ref={input}
          id={`${id}-input`}
          className={`input ${styles.amountInput}`}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errId : `${id}-hint`}
        />
        {error ? (
          <p className="error-text" id={errId}>
            {error}
          </p>
        ) : (
          <p className="hint" id={`${id}-hint`}>
            {t("amountForm.hint")}
          </p>
        )}
      </div>
      <p role="alert" className={styles.alert}>
        {formError}
      </p>
      <div className={styles.actions}>
        <Button type="submit" size="small" loading={busy}>
          {t("amountForm.save")}
        </Button>
        <Button variant="ghost" size="small" onClick={onCancel}>
          {t("amountForm.keep", { amount: money(plan.amount) })}
        </Button>
      </div>
    </form>
  );
}

function CardPanel({ id, path, onDone, onCancel }: { id: string; path: string; onDone: () => void; onCancel: () => void }) {
  const t = useTranslations("account");
  const failureText = useFailureText();
  const [setup, setSetup] = useState<Setup | null>(null);
  const [error, setError] = useState<Failure | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    let live = true;
    void donorApi<Setup>("POST", path).then((res) => {
      if (!live) return;
      if (res.ok) setSetup(res.data);
      else setError(res);
    });
    return () => {
      live = false;
    };
  }, [path]);

  return (
    <section id={id} className={styles.panel} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className={styles.panelTitle}>
        {t("cardForm.title")}
      </h3>
      <p className="small muted">{t("cardForm.lead")}</p>
      {error ? (
        <p role="alert" className={styles.alert}>
          {failureText(error)}
        </p>
      ) : !setup ? (
        <p className="small muted" aria-live="polite">
          {t("cardForm.loading")}
        </p>
      ) : setup.mode === "sandbox" ? (
        <SandboxCardForm
          clientSecret={setup.clientSecret}
          returnPath=""
          payLabel={t("cardForm.save")}
          busyLabel={t("cardForm.saving")}
          confirmPath="/api/sandbox/setup-intents/confirm"
          onConfirmed={onDone}
        />
      ) : setup.publishableKey ? (
        <StripeCardSetup publishableKey={setup.publishableKey} clientSecret={setup.clientSecret} onSaved={onDone} />
      ) : null}
      <div className={styles.actions}>
        <Button variant="ghost" size="small" onClick={onCancel}>
          {t("cardForm.keep")}
        </Button>
      </div>
    </section>
  );
}

function CancelPanel({ id, plan, path, onDone, onCancel }: PlanPanelProps) {
  const t = useTranslations("account");
  const failureText = useFailureText();
  const money = useMoney(plan.currency);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  async function confirm() {
    if (busy) return;
    setBusy(true);
    setError(null);
    const res = await donorApi("POST", path);
    setBusy(false);
    if (res.ok || (res.status === 409 && res.message.startsWith("Recurring plan is already canceled"))) return onDone();
    setError(failureText(res));
  }

  return (
    <section id={id} className={`${styles.panel} ${styles.danger}`} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className={styles.panelTitle}>
        {t(`cancelPanel.title.${plan.interval}`)}
      </h3>
      <p>{t(`cancelPanel.body.${plan.interval}`, { amount: money(plan.amount), campaign: plan.campaignTitle })}</p>
      <p role="alert" className={styles.alert}>
        {error}
      </p>
      <div className={styles.actions}>
        <Button variant="danger" size="small" loading={busy} onClick={confirm}>
          {t("cancelPanel.confirm")}
        </Button>
        <Button variant="ghost" size="small" onClick={onCancel}>
          {t("cancelPanel.keep")}
        </Button>
      </div>
    </section>
  );
}
