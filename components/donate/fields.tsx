import type { InputHTMLAttributes, ReactNode } from "react";
import { FieldError } from "./field-error";
import styles from "./donate-form.module.css";

/** A labelled text input with its hint and its error, which it names in aria-describedby. */
export function TextField(
  props: {
    id: string;
    label: ReactNode;
    error?: string;
    errorId: string;
    hint?: string;
    type?: "text" | "email";
    inputMode?: "text" | "email" | "numeric";
    autoComplete: string;
    maxLength?: number;
    /** Digits in a fixed-width font, as card numbers are printed. */
    mono?: boolean;
  } & Pick<InputHTMLAttributes<HTMLInputElement>, "name" | "value" | "placeholder" | "onChange" | "onBlur"> & {
      ref?: React.Ref<HTMLInputElement>;
    },
) {
  const { id, label, error, errorId, hint, type, mono, ...input } = props;
  const hintId = hint ? `${id}-hint` : undefined;
  const describedBy = [hintId, error && errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        id={id}
        className={mono ? `${styles.input} ${styles.mono}` : styles.input}
        type={type ?? "text"}
        spellCheck={type === "email" ? false : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint && (
        <p className={styles.hint} id={hintId}>
          {hint}
        </p>
      )}
      <FieldError id={errorId} text={error} />
    </div>
  );
}

export function Checkbox(props: {
  id: string;
  /** Its name in the posted form (the donate page posts to itself). */
  name?: string;
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
        name={props.name}
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

/** One choice of a radio group drawn as buttons: the real radio covers its label, invisible (see .radio). */
export function RadioOption(props: {
  id: string;
  name: string;
  value?: string | number;
  checked: boolean;
  onChange: () => void;
  describedBy?: string;
  label: ReactNode;
}) {
  return (
    <div className={styles.option}>
      <input
        type="radio"
        className={styles.radio}
        id={props.id}
        name={props.name}
        value={props.value}
        checked={props.checked}
        onChange={props.onChange}
        aria-describedby={props.describedBy}
      />
      <label className={styles.optionLabel} htmlFor={props.id}>
        {props.label}
      </label>
    </div>
  );
}
