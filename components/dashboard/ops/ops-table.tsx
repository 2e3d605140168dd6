import type { ReactNode } from "react";
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
