"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { issueText, type IssueCode } from "@/components/forms/issue-text";
import { SandboxCardForm } from "@/components/donate/sandbox-card-form";
import { Button } from "@/components/ui/button";
import { formatMoney, minorToInput, parseMoney } from "@/lib/money";
import styles from "./plan-controls.module.css";
import { StripeCardSetup } from "./stripe-card-setup";

/** What the controls need of a plan (the donor API's DonorRecurringPlan). */
export type ControlledPlan = {
  id: string;
  campaignTitle: string;
  amount: number;
  currency: string;
  interval: "MONTH" | "YEAR";
  status: "INCOMPLETE" | "ACTIVE" | "PAST_DUE" | "CANCELED";
};

type Panel = "amount" | "card" | "cancel" | null;
type Setup = { mode: "stripe" | "sandbox"; clientSecret: string; publishableKey: string | null };
type Failure = { status: number; error: string; fieldErrors: Record<string, string[]>; codes: Record<string, IssueCode[]> };

const PER = { MONTH: "a month", YEAR: "a year" } as const;
const KIND = { MONTH: "monthly", YEAR: "yearly" } as const;

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
    const error =
      res.status === 401
        ? "Your sign-in has expired. Reload the page and sign in again."
        : res.status === 429
          ? "Too many attempts in a short time. Wait a minute and try again."
          : res.status >= 500
            ? "Something went wrong on our side, and nothing was changed. Please try again in a moment."
            : `${json.error ?? "This could not be done"}.`;
    return { ok: false, status: res.status, error, fieldErrors: json.details?.fieldErrors ?? {}, codes: json.details?.codes ?? {} };
  } catch {
    return {
      ok: false,
      status: 0,
      error: "We couldn't reach the server. Check your connection and try again.",
      fieldErrors: {},
      codes: {},
    };
  }
}

/**
 * A running plan's controls on the donor's account page: change the amount (from the next
 * charge on), replace the card (Stripe's Payment Element, or the sandbox card form), and cancel
 * after a confirmation step. One panel is open at a time; opening one moves the focus into it,
 * closing it returns the focus to its button; outcomes are announced in the plan's status line.
 */
export function PlanControls({ plan, orgSlug }: { plan: ControlledPlan; orgSlug: string }) {
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
            ["amount", "Change amount"],
            ["card", "Replace card"],
            ["cancel", "Cancel gift"],
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
            close(`Your gift is now ${formatMoney(amount, plan.currency)} ${PER[plan.interval]}, from the next charge on.`);
            router.refresh();
          }}
          onCancel={() => close()}
        />
      ) : null}
      {panel === "card" ? (
        <CardPanel
          id={`${uid}-card`}
          path={`${base}/payment-method`}
          onDone={() => close("Your new card is saved. The next charges of this gift will use it.")}
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
            setNotice(`Your ${KIND[plan.interval]} gift is canceled: no further charges. We emailed you a confirmation.`);
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

function AmountForm({
  id,
  plan,
  path,
  onDone,
  onCancel,
}: {
  id: string;
  plan: ControlledPlan;
  path: string;
  onDone: (amount: number) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(() => minorToInput(plan.amount, plan.currency));
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const money = (minor: number) => formatMoney(minor, plan.currency);

  async function onSubmit(ev: FormEvent<HTMLFormElement>) {
    ev.preventDefault();
    if (busy) return;
    setFormError(null);
    const parsed = parseMoney(text, plan.currency);
    const fail = (message: string) => {
      setError(message);
      input.current?.focus();
    };
    if (!parsed.ok) return fail(parsed.message);
    if (parsed.minor === null) return fail("Enter the new amount");
    if (parsed.minor < 100) return fail(`The minimum gift is ${money(100)}`);
    setError(null);
    setBusy(true);
    const res = await donorApi<{ amount: number }>("PATCH", path, { amount: parsed.minor });
    setBusy(false);
    if (res.ok) return onDone(res.data.amount);
    const code = res.codes.amount?.[0];
    if (res.fieldErrors.amount?.length || code) {
      const fallback = res.fieldErrors.amount?.[0] ?? "Check the amount";
      const values = Array.isArray(code?.values) ? (code.values as number[]) : null;
      return fail(
        code?.code === "not_a_suggested_amount" && values
          ? `Choose one of: ${values.map(money).join(", ")}`
          : code
            ? issueText("amount", code, fallback, {
                fields: {
                  amount: {
                    money: true,
                    atLeast: (m) => `The minimum gift is ${m}`,
                    atMost: (m) => `The most you can give online is ${m}`,
                  },
                },
                money,
              })
            : fallback,
      );
    }
    setFormError(res.error);
  }

  const errId = `${id}-error`;
  return (
    <form
      id={id}
      className={styles.panel}
      onSubmit={onSubmit}
      noValidate
      aria-label={`Change the amount of your gift to ${plan.campaignTitle}`}
    >
      <div className="field">
        <label htmlFor={`${id}-input`}>
          New amount {PER[plan.interval]} ({plan.currency.toUpperCase()})
        </label>
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
            From the next charge on. Nothing is charged now.
          </p>
        )}
      </div>
      <p role="alert" className={styles.alert}>
        {formError}
      </p>
      <div className={styles.actions}>
        <Button type="submit" size="small" loading={busy}>
          Save amount
        </Button>
        <Button variant="ghost" size="small" onClick={onCancel}>
          Keep {money(plan.amount)}
        </Button>
      </div>
    </form>
  );
}

function CardPanel({ id, path, onDone, onCancel }: { id: string; path: string; onDone: () => void; onCancel: () => void }) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    let live = true;
    void donorApi<Setup>("POST", path).then((res) => {
      if (!live) return;
      if (res.ok) setSetup(res.data);
      else setError(res.error);
    });
    return () => {
      live = false;
    };
  }, [path]);

  return (
    <section id={id} className={styles.panel} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className={styles.panelTitle}>
        Replace your card
      </h3>
      <p className="small muted">The new card is used from the next charge on. Nothing is charged now.</p>
      {error ? (
        <p role="alert" className={styles.alert}>
          {error}
        </p>
      ) : !setup ? (
        <p className="small muted" aria-live="polite">
          Loading the card form…
        </p>
      ) : setup.mode === "sandbox" ? (
        <SandboxCardForm
          clientSecret={setup.clientSecret}
          returnPath=""
          payLabel="Save card"
          busyLabel="Saving card…"
          confirmPath="/api/sandbox/setup-intents/confirm"
          onConfirmed={onDone}
        />
      ) : setup.publishableKey ? (
        <StripeCardSetup publishableKey={setup.publishableKey} clientSecret={setup.clientSecret} onSaved={onDone} />
      ) : null}
      <div className={styles.actions}>
        <Button variant="ghost" size="small" onClick={onCancel}>
          Keep my current card
        </Button>
      </div>
    </section>
  );
}

function CancelPanel({
  id,
  plan,
  path,
  onDone,
  onCancel,
}: {
  id: string;
  plan: ControlledPlan;
  path: string;
  onDone: () => void;
  onCancel: () => void;
}) {
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
    if (res.ok || (res.status === 409 && res.error.startsWith("Recurring plan is already canceled"))) return onDone();
    setError(res.error);
  }

  return (
    <section id={id} className={`${styles.panel} ${styles.danger}`} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className={styles.panelTitle}>
        Cancel your {KIND[plan.interval]} gift?
      </h3>
      <p>
        {`Your gift of ${formatMoney(plan.amount, plan.currency)} ${PER[plan.interval]} to ${plan.campaignTitle} stops now: no further charges. Gifts already made, and their receipts, stay as they are.`}
      </p>
      <p role="alert" className={styles.alert}>
        {error}
      </p>
      <div className={styles.actions}>
        <Button variant="danger" size="small" loading={busy} onClick={confirm}>
          Yes, cancel my gift
        </Button>
        <Button variant="ghost" size="small" onClick={onCancel}>
          Keep my gift
        </Button>
      </div>
    </section>
  );
}
