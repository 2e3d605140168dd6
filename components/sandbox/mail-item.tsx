import type { ReactNode } from "react";
import { LocalTime } from "@/components/ui/local-time";

/** One email in the sandbox mailbox: a card headed by its recipient, when it was queued and `meta` (badges), then `children`. */
export function MailItem({ to, createdAt, meta, children }: { to?: string; createdAt: Date; meta?: ReactNode; children: ReactNode }) {
  return (
    <li className="card mail-item">
      <div className="meta">
        <span>
          To <strong style={{ color: "var(--ink)" }}>{to}</strong>
        </span>
        <LocalTime iso={createdAt.toISOString()} />
        {meta}
      </div>
      {children}
    </li>
  );
}
