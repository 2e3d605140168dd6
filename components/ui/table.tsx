import type { AriaAttributes, ReactNode, ThHTMLAttributes } from "react";

/**
 * A table that scrolls sideways on narrow screens. The wrapper is focusable and labelled so
 * keyboard users can scroll it too. With `cards`, a phone (below 640 px) shows each row as a
 * card instead: cells marked `card-lead` (the amount) and `card-status` come first, the others
 * follow under their column's name (`data-label`), and nothing scrolls sideways.
 */
export function TableWrap({ label, children, cards = false }: { label: string; children: ReactNode; cards?: boolean }) {
  return (
    <div className={cards ? "table-wrap cards-on-phone" : "table-wrap"} role="region" aria-label={label} tabIndex={0}>
      <table className="table">{children}</table>
    </div>
  );
}

/** The header of a column of numbers: right-aligned, like the cells under it. */
function NumTh({ children, ...rest }: Omit<ThHTMLAttributes<HTMLTableCellElement>, "scope" | "className">) {
  return (
    <th scope="col" className="num" {...rest}>
      {children}
    </th>
  );
}

/** The header of a column of row actions: named for screen readers only. */
function ActionsTh() {
  return (
    <th scope="col">
      <span className="sr-only">Actions</span>
    </th>
  );
}

/** A column of a table's header row: its name, or an object for a column of numbers or a sorted one. */
export type Column = ReactNode | { label: ReactNode; num?: boolean; sort?: AriaAttributes["aria-sort"] };

/** A column of numbers, right-aligned (NumTh). */
export const num = (label: ReactNode, sort?: AriaAttributes["aria-sort"]): Column => ({ label, num: true, sort });

function isSpec(c: Column): c is { label: ReactNode; num?: boolean; sort?: AriaAttributes["aria-sort"] } {
  return typeof c === "object" && c !== null && "label" in c;
}

/**
 * A table's `<thead>`: one header a column, in order; `null`/`false` columns are left out, and
 * `actions` ends the row with the row-actions column (ActionsTh).
 */
export function TableHead({ columns, actions = false }: { columns: readonly (Column | null | false)[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) => {
          if (c === null || c === false) return null;
          if (!isSpec(c)) {
            return (
              <th key={i} scope="col">
                {c}
              </th>
            );
          }
          return c.num ? (
            <NumTh key={i} aria-sort={c.sort}>
              {c.label}
            </NumTh>
          ) : (
            <th key={i} scope="col" aria-sort={c.sort}>
              {c.label}
            </th>
          );
        })}
        {actions ? <ActionsTh /> : null}
      </tr>
    </thead>
  );
}
