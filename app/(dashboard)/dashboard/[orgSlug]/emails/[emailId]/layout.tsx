import type { ReactNode } from "react";
import { emailOr404 } from "../../records";

// Checks that the record exists above the page's loading boundary, so a missing one answers 404.
export default async function Layout({ children, params }: { children: ReactNode; params: Promise<{ orgSlug: string; emailId: string }> }) {
  const { orgSlug, emailId } = await params;
  await emailOr404(orgSlug, emailId);
  return children;
}
