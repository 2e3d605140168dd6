import type { ReactNode } from "react";
import { webhookEndpointOr404 } from "../../records";

// Checks that the record exists above the page's loading boundary, so a missing one answers 404.
export default async function Layout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ orgSlug: string; endpointId: string }>;
}) {
  const { orgSlug, endpointId } = await params;
  await webhookEndpointOr404(orgSlug, endpointId);
  return children;
}
