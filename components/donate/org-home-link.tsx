"use client";

import { useParams } from "next/navigation";

/**
 * From a campaign's 404, the way on to its organization's own page (its other campaigns), not
 * the platform's: the organization is in the address even when the campaign isn't. On the
 * organization's custom domain its page is the site's root. A plain link: the donate pages load
 * no next/link for it.
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
  const orgSlug = params?.orgSlug;
  const href = customDomain || !orgSlug ? "/" : `/o/${encodeURIComponent(orgSlug)}`;
  return (
    <a className={className} href={href}>
      {children}
    </a>
  );
}
