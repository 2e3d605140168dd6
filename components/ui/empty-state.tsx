import type { ReactNode } from "react";

export function EmptyState({
  title,
  children,
  action,
  icon = "+",
}: {
  title: ReactNode;
  children?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="empty">
      <div className="empty-icon" aria-hidden="true">
        {icon}
      </div>
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action ? (
        <div className="button-row" style={{ justifyContent: "center" }}>
          {action}
        </div>
      ) : null}
    </div>
  );
}
