import type { ReactNode } from "react";

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
