import "../ui.css";
import type { ReactNode } from "react";

// The API reference and guides: the shared classes (app/ui.css) on top of the root layout's.
export default function DocsLayout({ children }: { children: ReactNode }) {
  return children;
}
