import type { ReactNode } from "react";
import { campaignOr404 } from "../../records";

// Checks that the record exists above the page's loading boundary, so a missing one answers 404.
export default async function Layout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ orgSlug: string; campaignId: string }>;
}) {
  const { orgSlug, campaignId } = await params;
  await campaignOr404(orgSlug, campaignId);
  return children;
}
