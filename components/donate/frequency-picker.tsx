import { FieldError } from "./field-error";
import { RadioOption } from "./fields";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

/** How often the gift is charged, where the campaign offers a choice. */
export function FrequencyPicker({ f }: { f: DonateFormState }) {
  const { ids, interval, t } = f;
  const { id, errorId, describedBy } = ids;
  const frequency = f.values.recurringInterval;
  const error = f.errorOf("recurringInterval");
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>{t("form.frequencyLegend", { type: f.campaign.type })}</legend>
      <div className={styles.segmented}>
        {f.limits.frequencies.map((option) => (
          <RadioOption
            key={option}
            id={`${id("frequency")}-${option}`}
            name="recurringInterval"
            value={option}
            checked={frequency === option}
            onChange={() => {
              f.setValue("recurringInterval", option);
              f.edited("recurringInterval");
            }}
            describedBy={describedBy(frequency !== "ONCE" && id("frequency-hint"), error && errorId("recurringInterval"))}
            label={t("form.frequency", { frequency: option })}
          />
        ))}
      </div>
      <p className={styles.hint} id={id("frequency-hint")} data-live="frequencyHint">
        {t("form.frequencyHint", { interval: interval ?? "ONCE" })}
      </p>
      <FieldError id={errorId("recurringInterval")} text={error} />
    </fieldset>
  );
}
