import type { ComponentProps, ReactNode } from "react";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger" | "danger-outline";
export type ButtonSize = "small" | "medium" | "large";

function classes(variant: ButtonVariant, size: ButtonSize, block?: boolean, extra?: string) {
  return ["button", variant === "primary" ? "" : variant, size === "medium" ? "" : size, block ? "block" : "", extra ?? ""]
    .filter(Boolean)
    .join(" ");
}

type ButtonProps = ComponentProps<"button"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  /** Shows a spinner, marks the button busy and disables it while an action runs. */
  loading?: boolean;
};

/** A button with a visible focus ring; `loading` keeps its label so screen readers still know what it does. */
export function Button({
  variant = "primary",
  size = "medium",
  block,
  loading,
  disabled,
  className,
  children,
  type = "button",
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={classes(variant, size, block, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** A form's foot: its submit button (busy while the form is sent), then `aside` (a hint such as "Unsaved changes"). */
export function SubmitRow({
  loading,
  disabled,
  aside,
  children,
}: {
  loading?: boolean;
  disabled?: boolean;
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="button-row">
      <Button type="submit" loading={loading} disabled={disabled}>
        {children}
      </Button>
      {aside}
    </div>
  );
}
