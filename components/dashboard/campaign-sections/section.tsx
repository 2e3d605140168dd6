"use client";

import type { ReactNode } from "react";
import type { FieldKey, FormValues } from "../campaign-form-model";

/** One titled card of the campaign editor. */
export function Section({ id, title, hint, children }: { id: string; title: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <section className="card form-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {hint ? <p className="section-hint">{hint}</p> : null}
      {children}
    </section>
  );
}

type InputKey = FieldKey & keyof FormValues;

/**
 * What the editor hands each section: the values as typed, the props that bind an input or a
 * checkbox to its field (ID, value, change, blur, error), each field's error by dotted key
 * ("suggestedAmounts.2"), which fields the campaign's type and switches show, and the setters.
 */
export type CampaignFields = {
  values: FormValues;
  text: (key: InputKey) => {
    id: string;
    value: string;
    onChange: (e: { target: { value: string } }) => void;
    onBlur: () => void;
    error: string | null;
  };
  check: (key: InputKey) => { id: string; checked: boolean; onChange: (e: { target: { checked: boolean } }) => void; error: string | null };
  err: (key: string) => string | null;
  has: (key: FieldKey) => boolean;
  set: <K extends keyof FormValues>(field: K, value: FormValues[K]) => void;
  blur: (field: FieldKey) => () => void;
};

/** Money typed in the organization's currency: its symbol, the keypad its decimals need, the smallest gift. */
export type MoneyInput = {
  symbol: string;
  /** Zero-decimal currencies (jpy, krw) are typed as whole amounts: a numeric keypad, no decimal point. */
  inputMode: "decimal" | "numeric";
  /** The smallest gift, as money ("$1", "¥100"), and as typed ("1.00", "100"). */
  minimum: string;
  minimumInput: string;
};

/** An amount input's props: the currency's symbol before it, its keypad. */
export const moneyProps = (money: MoneyInput) => ({ inputMode: money.inputMode, prefix: money.symbol }) as const;
