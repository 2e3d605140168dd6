import "../ui.css";
import type { ReactNode } from "react";

// The sign-in pages: the shared classes (app/ui.css) on top of the root layout's.
export default function SignInLayout({ children }: { children: ReactNode }) {
  return children;
}
