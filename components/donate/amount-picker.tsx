import { currencyDecimals, currencySymbol } from "@/lib/money";
import { FieldError } from "./field-error";
import { RadioOption } from "./fields";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

/** The gift: a radio group of the suggested amounts and, if the campaign allows, an amount of one's own. */
export function AmountPicker({ f, currency }: { f: DonateFormState; currency: string }) {
  const { campaign, values, ids, errorOf, money, t, locale } = f;
  const { id, errorId } = ids;
  const amounts = campaign.suggestedAmounts;
  const choice = values.amount.choice;
  const error = errorOf("amount");
  // Zero-decimal currencies (jpy, krw) take whole amounts only: no decimal point in the keypad or the placeholder.
  const decimals = currencyDecimals(currency);
  const choose = (next: string, custom: string) => {
    f.setValue("amount", { choice: next, custom });
    f.edited("amount");
  };

  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>{t("form.amountLegend", { type: campaign.type })}</legend>
      {amounts.length > 0 && (
        <div
          className={styles.amountGrid}
          // Two or four amounts sit in two columns, anything else in rows of three.
          style={{
            gridTemplateColumns: `repeat(${amounts.length === 2 || amounts.length === 4 ? 2 : Math.min(3, amounts.length)}, minmax(0, 1fr))`,
          }}
        >
          {amounts.map((a) => (
            <RadioOption
              key={a}
              id={`${id("amount")}-${a}`}
              name="amount"
              value={a}
              checked={choice === String(a)}
              onChange={() => choose(String(a), "")}
              describedBy={choice !== "custom" && error ? errorId("amount") : undefined}
              label={money(a, true)}
            />
          ))}
        </div>
      )}
      {campaign.allowCustomAmount && (
        <div className={styles.customAmount}>
          <label className={styles.label} htmlFor={id("amount")}>
            {amounts.length > 0 ? t("form.otherAmount") : t("form.amount")}
          </label>
          <div
            className={`${styles.moneyInput} ${choice === "custom" ? styles.moneyInputActive : ""}`}
            data-active-class={styles.moneyInputActive}
          >
            <span className={styles.moneySymbol} aria-hidden="true">
              {currencySymbol(currency, locale)}
            </span>
            <input
              id={id("amount")}
              name="amount.custom"
              className={styles.input}
              type="text"
              inputMode={decimals === 0 ? "numeric" : "decimal"}
              autoComplete="off"
              placeholder={new Intl.NumberFormat(locale, { minimumFractionDigits: decimals }).format(0)}
              value={values.amount.custom}
              onChange={(e) => {
                // Typing picks the custom amount; merely tabbing through keeps the chosen button.
                const text = e.target.value.slice(0, 20);
                choose(text.trim() !== "" || amounts.length === 0 ? "custom" : choice, text);
              }}
              {...ids.invalidProps("amount", id("amount-hint"))}
              aria-invalid={choice === "custom" && error ? true : undefined}
            />
          </div>
          <p className={styles.hint} id={id("amount-hint")}>
            {t("form.minimum", { amount: money(f.limits.minCents) })}
          </p>
        </div>
      )}
      <FieldError id={errorId("amount")} text={error} />
    </fieldset>
  );
}
