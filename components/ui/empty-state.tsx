import type { ReactNode } from "react";

export function EmptyState({
  title,
  children,
  action,
  icon = "+",
  level = 2,
}: {
  title: ReactNode;
  /** The title's heading level: 1 when the empty state is the whole page (a 404). */
  level?: 1 | 2;
  children?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="empty">
      <div className="empty-icon" aria-hidden="true">
        {icon}
      </div>
      {level === 1 ? <h1>{title}</h1> : <h2>{title}</h2>}
      {children ? <p>{children}</p> : null}
      {action ? (
        <div className="button-row" style={{ justifyContent: "center" }}>
          {action}
        </div>
      ) : null}
    </div>
  );
}
