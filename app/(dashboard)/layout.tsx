import "../ui.css";
import type { ReactNode } from "react";
import { SessionKeepAlive } from "@/components/dashboard/session-controls";
import { SecondFactorPrompt } from "@/components/security/second-factor-prompt";
import { ToastProvider } from "@/components/ui/toast";

// Everything under /dashboard: confirmations (toasts), a session kept alive while a tab is open,
// and the dialog that asks for the second factor when an action needs a recent one.
export default function DashboardGroupLayout({ children }: { children: ReactNode }) {
  return (
    <ToastProvider>
      <SessionKeepAlive />
      <SecondFactorPrompt />
      {children}
    </ToastProvider>
  );
}
