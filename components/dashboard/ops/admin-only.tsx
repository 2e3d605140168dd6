import Link from "next/link";
import type { ReactNode } from "react";
import { Notice } from "@/components/ui/notice";

/** What a MEMBER sees instead of an admin-only page: its `header`, then why it is for admins and whom to ask. */
export function AdminOnly({
  header,
  orgSlug,
  title = "Webhooks are managed by admins",
  why = <>Outbound webhooks send your organization&apos;s data to other systems, so only admins and owners can see and change them.</>,
}: {
  /** The page's own header, shown above the notice. */
  header?: ReactNode;
  orgSlug: string;
  title?: string;
  /** One sentence saying why the page is for admins and owners only. */
  why?: ReactNode;
}) {
  return (
    <>
      {header}
      <Notice tone="info" title={title}>
        <p>
          {why} Ask an owner on the <Link href={`/dashboard/${orgSlug}/members`}>Members</Link> page if you need access.
        </p>
      </Notice>
    </>
  );
}
