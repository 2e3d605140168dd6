import type { ReactNode } from "react";
import { SessionKeepAlive } from "@/components/dashboard/session-controls";
import { ToastProvider } from "@/components/ui/toast";

// Everything under /dashboard: confirmations (toasts) and a session kept alive while a tab is open.
export default function DashboardGroupLayout({ children }: { children: ReactNode }) {
  return (
    <ToastProvider>
      <SessionKeepAlive />
      {children}
    </ToastProvider>
  );
}
