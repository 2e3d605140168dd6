import "../ui.css";
import type { ReactNode } from "react";

// The sandbox's mailbox and onboarding pages: the shared classes (app/ui.css) on top of the root layout's.
export default function SandboxLayout({ children }: { children: ReactNode }) {
  return children;
}
