import { FieldError } from "./field-error";
import { Checkbox, TextField } from "./fields";
import { TEXT_MAX, type DedicationType } from "./donate-schema";
import type { DonateFormState } from "./use-donate-form";
import styles from "./donate-form.module.css";

const TYPES: { value: DedicationType; label: string }[] = [
  { value: "IN_HONOR", label: "In honor of" },
  { value: "IN_MEMORY", label: "In memory of" },
];

/** "Dedicate this gift to someone": in honor or in memory of a person, who may be told by email. */
export function DedicationFields({ f }: { f: DonateFormState }) {
  const { ids, errorOf, values } = f;
  const { id, errorId } = ids;
  const register = (name: "dedication.honoreeName" | "dedication.notifyEmail" | "dedication.message") => ({
    id: id(name),
    error: errorOf(name),
    errorId: errorId(name),
    ...f.form.register(name, { onChange: () => f.edited(name) }),
  });
  const type = values.dedication.type;

  return (
    <div className={styles.fieldset}>
      <Checkbox
        id={id("dedicate")}
        checked={values.dedicate}
        onChange={(v) => f.setValue("dedicate", v)}
        label="Dedicate this gift to someone"
        hint="In honor or in memory of a person you choose."
        controls={id("dedication")}
      />
      {values.dedicate && (
        <fieldset className={`${styles.fieldset} ${styles.nested}`} id={id("dedication")}>
          <legend className={styles.srOnly}>Dedication</legend>
          <div className={styles.segmented} role="radiogroup" aria-label="Dedication type">
            {TYPES.map((t) => (
              <div key={t.value} className={styles.option}>
                <input
                  type="radio"
                  className={styles.radio}
                  id={`${id("dedication-type")}-${t.value}`}
                  name={id("dedication-type")}
                  checked={type === t.value}
                  onChange={() => f.setValue("dedication.type", t.value)}
                />
                <label className={styles.optionLabel} htmlFor={`${id("dedication-type")}-${t.value}`}>
                  {t.label}
                </label>
              </div>
            ))}
          </div>
          <TextField
            {...register("dedication.honoreeName")}
            label={type === "IN_HONOR" ? "Name of the person you're honoring" : "Name of the person you're remembering"}
            autoComplete="off"
            maxLength={TEXT_MAX.honoreeName}
          />
          <TextField
            {...register("dedication.notifyEmail")}
            label={
              <>
                Let someone know by email <span className={styles.optional}>(optional)</span>
              </>
            }
            type="email"
            inputMode="email"
            autoComplete="off"
            hint="We'll email them that a gift was made in this name."
            maxLength={TEXT_MAX.email}
          />
          <div className={styles.field}>
            <label className={styles.label} htmlFor={id("dedication.message")}>
              Note for them <span className={styles.optional}>(optional)</span>
            </label>
            <textarea
              id={id("dedication.message")}
              className={`${styles.input} ${styles.textarea}`}
              rows={2}
              maxLength={TEXT_MAX.dedicationMessage}
              {...f.form.register("dedication.message", { onChange: () => f.edited("dedication.message") })}
              {...ids.invalidProps("dedication.message")}
            />
            <FieldError id={errorId("dedication.message")} text={errorOf("dedication.message")} />
          </div>
        </fieldset>
      )}
    </div>
  );
}
