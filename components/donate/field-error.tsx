import styles from "./donate-form.module.css";

/** An error under its field; the field points at it with aria-describedby and aria-invalid. */
export function FieldError({ id, text }: { id: string; text?: string | false }) {
  if (!text) return null;
  return (
    <p className={styles.fieldError} id={id}>
      <svg aria-hidden="true" viewBox="0 0 16 16" width="16" height="16" className={styles.errorIcon}>
        <circle cx="8" cy="8" r="7" fill="currentColor" />
        <path d="M8 4.2v4.6M8 10.8v.9" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      <span>{text}</span>
    </p>
  );
}
