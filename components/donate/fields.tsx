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
    inputMode?: "text" | "email";
    autoComplete: string;
    maxLength?: number;
  } & Pick<InputHTMLAttributes<HTMLInputElement>, "name" | "onChange" | "onBlur"> & { ref?: React.Ref<HTMLInputElement> },
) {
  const { id, label, error, errorId, hint, type, ...input } = props;
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
        className={styles.input}
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
