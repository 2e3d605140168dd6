import type { ReactNode } from "react";

/** A page's main landmark while its data loads: marked busy, and its status said once to screen readers. */
export function LoadingMain({ className, status, children }: { className: string; status: string; children: ReactNode }) {
  return (
    <main id="main" className={className} aria-busy="true">
      <p className="sr-only" role="status">
        {status}
      </p>
      {children}
    </main>
  );
}
