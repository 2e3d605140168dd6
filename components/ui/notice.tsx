import type { ReactNode } from "react";

export type NoticeTone = "info" | "success" | "warn" | "error";

/** A message block; errors are announced (role="alert"), others politely (role="status") when `live`. */
export function Notice({
  tone = "info",
  title,
  children,
  actions,
  live,
  id,
}: {
  tone?: NoticeTone;
  title?: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  live?: boolean;
  id?: string;
}) {
  const role = live ? (tone === "error" ? "alert" : "status") : undefined;
  return (
    <div className={`notice ${tone}`} role={role} id={id}>
      <div className="notice-body">
        {title ? <p className="notice-title">{title}</p> : null}
        {children}
      </div>
      {actions ? <div className="button-row">{actions}</div> : null}
    </div>
  );
}
