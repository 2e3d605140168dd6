import Link from "next/link";
import { Notice } from "@/components/ui/notice";

/** What a MEMBER sees instead of an admin-only page. */
export function AdminOnly({ orgSlug }: { orgSlug: string }) {
  return (
    <Notice tone="info" title="Webhooks are managed by admins">
      <p>
        Outbound webhooks send your organization&apos;s data to other systems, so only admins and owners can see and change them. Ask an
        owner on the <Link href={`/dashboard/${orgSlug}/members`}>Members</Link> page if you need access.
      </p>
    </Notice>
  );
}
