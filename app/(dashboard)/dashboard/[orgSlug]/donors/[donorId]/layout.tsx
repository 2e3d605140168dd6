import type { ReactNode } from "react";
import { donorOr404 } from "../../records";

// Checks that the record exists above the page's loading boundary, so a missing one answers 404.
export default async function Layout({ children, params }: { children: ReactNode; params: Promise<{ orgSlug: string; donorId: string }> }) {
  const { orgSlug, donorId } = await params;
  await donorOr404(orgSlug, donorId);
  return children;
}
