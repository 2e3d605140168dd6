"use client";

import type { CSSProperties, ReactNode } from "react";

/** The controls of a confirmation ("Revoke this key?"), a group named by `label`; Escape inside it cancels. */
export function ConfirmGroup({
  label,
  onCancel,
  className,
  style,
  children,
}: {
  label: string;
  onCancel: () => void;
  className?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <div
      className={className}
      role="group"
      aria-label={label}
      style={style}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          onCancel();
        }
      }}
    >
      {children}
    </div>
  );
}
