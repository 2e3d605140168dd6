import type { ReactNode, ThHTMLAttributes } from "react";
import { TableWrap } from "@/components/ui/table";
import styles from "./ops.module.css";

/**
 * TableWrap (the sideways-scrolling, labelled table) made a containing block, so visually
 * hidden text inside cells (`.sr-only` is absolutely positioned) scrolls with the table instead
 * of widening the page on a phone; and a grid item that may shrink below the table's width.
 */
export function OpsTable({ label, children, cards = false }: { label: string; children: ReactNode; cards?: boolean }) {
  return (
    <div className={styles.tableScope}>
      <TableWrap label={label} cards={cards}>
        {children}
      </TableWrap>
    </div>
  );
}

/** The header of a column of numbers: right-aligned, like the cells under it. */
export function NumTh({ children, ...rest }: Omit<ThHTMLAttributes<HTMLTableCellElement>, "scope" | "className">) {
  return (
    <th scope="col" className="num" {...rest}>
      {children}
    </th>
  );
}

/** The header of a column of row actions: named for screen readers only. */
export function ActionsTh() {
  return (
    <th scope="col">
      <span className="sr-only">Actions</span>
    </th>
  );
}
