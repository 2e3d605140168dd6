import { FieldError } from "./field-error";
import { Checkbox, RadioOption, TextField } from "./fields";
import { TEXT_MAX, type DedicationType } from "./donate-schema";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

const TYPES: DedicationType[] = ["IN_HONOR", "IN_MEMORY"];

/** "Dedicate this gift to someone": in honor or in memory of a person, who may be told by email. */
export function DedicationFields({ f }: { f: DonateFormState }) {
  const { ids, errorOf, values, t } = f;
  const optional = (chunks: React.ReactNode) => <span className={styles.optional}>{chunks}</span>;
  const { id, errorId } = ids;
  const register = (name: "dedication.honoreeName" | "dedication.notifyEmail" | "dedication.message") => ({
    id: id(name),
    error: errorOf(name),
    errorId: errorId(name),
    ...f.register(name),
  });
  const type = values.dedication.type;

  return (
    <div className={styles.fieldset}>
      <Checkbox
        id={id("dedicate")}
        name="dedicate"
        checked={values.dedicate}
        onChange={(v) => f.setValue("dedicate", v)}
        label={t("form.dedicate")}
        hint={t("form.dedicateHint")}
        controls={id("dedication")}
      />
      {/* Always in the page, hidden until ticked: the page without React shows it by the checkbox's aria-controls. */}
      <fieldset className={`${styles.fieldset} ${styles.nested}`} id={id("dedication")} hidden={!values.dedicate}>
        <legend className="sr-only">{t("form.dedication")}</legend>
        <div className={styles.segmented} role="radiogroup" aria-label={t("form.dedicationType")}>
          {TYPES.map((value) => (
            <RadioOption
              key={value}
              id={`${id("dedication-type")}-${value}`}
              name="dedication.type"
              value={value}
              checked={type === value}
              onChange={() => f.setValue("dedication.type", value)}
              label={t("form.dedicationTypes", { type: value })}
            />
          ))}
        </div>
        <TextField
          {...register("dedication.honoreeName")}
          label={t("form.honoree", { type })}
          autoComplete="off"
          maxLength={TEXT_MAX.honoreeName}
        />
        <TextField
          {...register("dedication.notifyEmail")}
          label={t.rich("form.notify", { optional })}
          type="email"
          inputMode="email"
          autoComplete="off"
          hint={t("form.notifyHint")}
          maxLength={TEXT_MAX.email}
        />
        <div className={styles.field}>
          <label className={styles.label} htmlFor={id("dedication.message")}>
            {t.rich("form.note", { optional })}
          </label>
          <textarea
            id={id("dedication.message")}
            className={`${styles.input} ${styles.textarea}`}
            rows={2}
            maxLength={TEXT_MAX.dedicationMessage}
            {...f.register("dedication.message")}
            {...ids.invalidProps("dedication.message")}
          />
          <FieldError id={errorId("dedication.message")} text={errorOf("dedication.message")} />
        </div>
      </fieldset>
    </div>
  );
}
