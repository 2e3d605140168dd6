"use client";

import Link from "next/link";
import { useParams } from "next/navigation";

/**
 * From a campaign's 404, the way on to its organization's own page (its other campaigns), not
 * the platform's: the organization is in the address even when the campaign isn't. On the
 * organization's custom domain its page is the site's root.
 */
export function OrgHomeLink({
  customDomain,
  className,
  children,
}: {
  customDomain: boolean;
  className?: string;
  children: React.ReactNode;
}) {
  const params = useParams<{ orgSlug?: string }>();
  const href = customDomain || !params.orgSlug ? "/" : `/o/${encodeURIComponent(params.orgSlug)}`;
  return (
    <Link className={className} href={href}>
      {children}
    </Link>
  );
}
