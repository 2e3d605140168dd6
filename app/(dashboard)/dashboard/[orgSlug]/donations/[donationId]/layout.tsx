import type { ReactNode } from "react";
import { donationOr404 } from "../../records";

// Checks that the record exists above the page's loading boundary, so a missing one answers 404.
export default async function Layout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ orgSlug: string; donationId: string }>;
}) {
  const { orgSlug, donationId } = await params;
  await donationOr404(orgSlug, donationId);
  return children;
}
