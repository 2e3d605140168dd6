import type { ReactNode } from "react";

export function Card({
  title,
  description,
  children,
  className,
  headingLevel = 2,
  id,
}: {
  title?: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  headingLevel?: 2 | 3;
  id?: string;
}) {
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className={["card", className].filter(Boolean).join(" ")} aria-labelledby={title && id ? `${id}-title` : undefined} id={id}>
      {title ? (
        <H className="card-title" id={id ? `${id}-title` : undefined}>
          {title}
        </H>
      ) : null}
      {description ? <p className="card-sub">{description}</p> : null}
      {children}
    </section>
  );
}

export function PageHeader({
  title,
  description,
  eyebrow,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  eyebrow?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
        <h1>{title}</h1>
        {description ? <p>{description}</p> : null}
      </div>
      {actions ? <div className="button-row">{actions}</div> : null}
    </div>
  );
}

export function Stat({ label, value, hint }: { label: ReactNode; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="stat">
      <div className="label">{label}</div>
      <div className="value">{value}</div>
      {hint ? <div className="small muted">{hint}</div> : null}
    </div>
  );
}
