import type { ComponentProps, ReactNode } from "react";

type FieldFrame = {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  /** Shown under the input, linked to it with aria-describedby, and marks it aria-invalid. */
  error?: string | null;
  required?: boolean;
  optional?: boolean;
  className?: string;
};

/** ids for the hint and error of field `id`, and the aria attributes its input needs. */
export function describedBy(id: string, hint: unknown, error: unknown) {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return { "aria-describedby": ids || undefined, "aria-invalid": error ? (true as const) : undefined };
}

function Frame({ id, label, hint, error, required, optional, className, children }: FieldFrame & { children: ReactNode }) {
  return (
    <div className={["field", className].filter(Boolean).join(" ")}>
      <label htmlFor={id}>
        {label}
        {required ? (
          <span className="required" aria-hidden="true">
            *
          </span>
        ) : null}
        {optional ? <span className="optional"> (optional)</span> : null}
      </label>
      {children}
      <FieldHint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** The hint under a field (`<id>-hint`, which its input's aria-describedby names); nothing without one. */
export function FieldHint({ id, hint }: { id: string; hint?: ReactNode }) {
  if (!hint) return null;
  return (
    <p className="hint" id={`${id}-hint`}>
      {hint}
    </p>
  );
}

/** The error line of a field; rendered in place so the layout does not jump when it appears. */
export function FieldError({ id, error }: { id: string; error?: string | null }) {
  if (!error) return null;
  return (
    <p className="error-text" id={`${id}-error`}>
      {error}
    </p>
  );
}

type InputProps = FieldFrame & Omit<ComponentProps<"input">, "id" | "prefix"> & { prefix?: ReactNode; suffix?: ReactNode; mono?: boolean };

/** A labelled text input with optional hint, error and prefix/suffix (e.g. a currency symbol). */
export function TextField({ id, label, hint, error, required, optional, className, prefix, suffix, mono, ...input }: InputProps) {
  const control = (
    <input
      {...input}
      id={id}
      required={required}
      className={["input", mono ? "mono" : ""].filter(Boolean).join(" ")}
      {...describedBy(id, hint, error)}
    />
  );
  return (
    <Frame id={id} label={label} hint={hint} error={error} required={required} optional={optional} className={className}>
      {prefix || suffix ? (
        <div className="input-group">
          {prefix ? (
            <span className="addon" aria-hidden="true">
              {prefix}
            </span>
          ) : null}
          {control}
          {suffix ? (
            <span className="addon" aria-hidden="true">
              {suffix}
            </span>
          ) : null}
        </div>
      ) : (
        control
      )}
    </Frame>
  );
}

type TextAreaProps = FieldFrame & Omit<ComponentProps<"textarea">, "id">;

export function TextAreaField({ id, label, hint, error, required, optional, className, ...area }: TextAreaProps) {
  return (
    <Frame id={id} label={label} hint={hint} error={error} required={required} optional={optional} className={className}>
      <textarea {...area} id={id} required={required} className="textarea" {...describedBy(id, hint, error)} />
    </Frame>
  );
}

type SelectProps = FieldFrame & Omit<ComponentProps<"select">, "id"> & { options: { value: string; label: string }[] };

export function SelectField({ id, label, hint, error, required, optional, className, options, ...select }: SelectProps) {
  return (
    <Frame id={id} label={label} hint={hint} error={error} required={required} optional={optional} className={className}>
      <select {...select} id={id} required={required} className="select" {...describedBy(id, hint, error)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

type CheckboxProps = Omit<ComponentProps<"input">, "id" | "type"> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
};

/** A checkbox with its label beside it and the hint under the label. */
export function CheckboxField({ id, label, hint, error, ...input }: CheckboxProps) {
  return (
    <div className="field">
      <div className="check">
        <input {...input} type="checkbox" id={id} {...describedBy(id, hint, error)} />
        <div>
          <label htmlFor={id}>{label}</label>
          <FieldHint id={id} hint={hint} />
        </div>
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}
