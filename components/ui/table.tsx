import type { ReactNode } from "react";

/**
 * A table that scrolls sideways on narrow screens. The wrapper is focusable and labelled so
 * keyboard users can scroll it too.
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table className="table">{children}</table>
    </div>
  );
}
