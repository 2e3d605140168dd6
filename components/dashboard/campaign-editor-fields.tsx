"use client";

import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/field";
import { MAX_SUGGESTED } from "./campaign-form-model";

/** The buttons donors pick from: one money input per amount, each removable, up to the API's limit. */
export function SuggestedAmounts(props: {
  amounts: string[];
  /** The currency sign shown before each amount. */
  money: string;
  /** The inputs' keypad: "numeric" for a zero-decimal currency. */
  inputMode: "decimal" | "numeric";
  /** The smallest amount, as money ("$1", "¥100"). */
  minimum: string;
  err: (key: string) => string | null;
  onChange: (amounts: string[]) => void;
  onBlur: () => void;
}) {
  const { amounts, money, inputMode, minimum, err, onChange, onBlur } = props;
  return (
    <fieldset
      className="plain field"
      aria-describedby={[err("suggestedAmounts") ? "cf-suggestedAmounts-error" : "", "cf-suggestedAmounts-hint"].filter(Boolean).join(" ")}
    >
      <legend className="label" style={{ fontWeight: 600, fontSize: "0.9rem", marginBottom: 6 }}>
        Suggested amounts
      </legend>
      <div className="amounts" id="cf-suggestedAmounts" tabIndex={-1}>
        {amounts.map((a, i) => {
          const key = `suggestedAmounts.${i}`;
          const id = `cf-suggestedAmounts-${i}`;
          return (
            <div className="amount-chip" key={i}>
              <label htmlFor={id} className="sr-only">
                Suggested amount {i + 1}
              </label>
              <div className="input-group">
                <span className="addon" aria-hidden="true">
                  {money}
                </span>
                <input
                  id={id}
                  className="input"
                  inputMode={inputMode}
                  value={a}
                  aria-invalid={err(key) ? true : undefined}
                  aria-describedby={err(key) ? `${id}-error` : undefined}
                  onChange={(e) => {
                    const list = [...amounts];
                    list[i] = e.target.value;
                    onChange(list);
                  }}
                  onBlur={onBlur}
                />
              </div>
              <Button
                variant="ghost"
                size="small"
                aria-label={`Remove suggested amount ${i + 1}${a ? ` (${money}${a})` : ""}`}
                onClick={() => {
                  const list = amounts.filter((_, j) => j !== i);
                  onChange(list);
                  requestAnimationFrame(() =>
                    (
                      document.getElementById(`cf-suggestedAmounts-${Math.max(0, i - 1)}`) ?? document.getElementById("cf-add-amount")
                    )?.focus(),
                  );
                }}
              >
                ×
              </Button>
            </div>
          );
        })}
        {amounts.length < MAX_SUGGESTED ? (
          <Button
            id="cf-add-amount"
            variant="secondary"
            size="small"
            onClick={() => {
              onChange([...amounts, ""]);
              const next = amounts.length;
              requestAnimationFrame(() => document.getElementById(`cf-suggestedAmounts-${next}`)?.focus());
            }}
          >
            + Add amount
          </Button>
        ) : null}
      </div>
      {amounts.map((_, i) => (
        <FieldError
          key={i}
          id={`cf-suggestedAmounts-${i}`}
          error={err(`suggestedAmounts.${i}`) ? `Amount ${i + 1}: ${err(`suggestedAmounts.${i}`)}` : null}
        />
      ))}
      <FieldError id="cf-suggestedAmounts" error={err("suggestedAmounts")} />
      <p className="hint" id="cf-suggestedAmounts-hint">
        The buttons donors pick from, each at least {minimum}. Up to {MAX_SUGGESTED}.
      </p>
    </fieldset>
  );
}

/** The accent colour: typed as hex, or picked. */
export function ColorField(props: { value: string; error: string | null; onChange: (value: string) => void; onBlur: () => void }) {
  const { value, error, onChange, onBlur } = props;
  return (
    <div className="field">
      <label htmlFor="cf-color">
        Accent colour<span className="optional"> (optional)</span>
      </label>
      <div className="color-row">
        <input
          id="cf-color"
          className="input mono"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          placeholder="#1a7f5a"
          autoCapitalize="none"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={["cf-color-hint", error ? "cf-color-error" : ""].filter(Boolean).join(" ")}
          style={{ maxWidth: 180 }}
        />
        <label htmlFor="cf-color-picker" className="sr-only">
          Pick the accent colour
        </label>
        <input
          id="cf-color-picker"
          type="color"
          value={
            /^#[0-9a-fA-F]{6}$/.test(value)
              ? value
              : /^#[0-9a-fA-F]{3}$/.test(value)
                ? `#${value.slice(1).replace(/./g, "$&$&")}`
                : "#1a7f5a"
          }
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
      <p className="hint" id="cf-color-hint">
        Hex, like #1a7f5a or #fff. Used for buttons and the progress bar.
      </p>
      <FieldError id="cf-color" error={error} />
    </div>
  );
}
