import type { Metadata } from "next";
import { MembersManager } from "@/components/dashboard/members-manager";
import { PageHeader } from "@/components/ui/card";
import { getDb } from "@/db";
import { requireOrg } from "@/lib/auth/server";
import { listMembers } from "@/lib/services/organizations/members";

export const metadata: Metadata = { title: "Members" };

// GET /dashboard/:orgSlug/members: the team and their roles; owners manage it.
export default async function MembersPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { org, role, user } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/members`);
  const members = await listMembers(await getDb(), org.id);
  return (
    <>
      <PageHeader title="Members" description={`Who can work on ${org.name}, and what they can do.`} />
      <MembersManager orgSlug={org.slug} orgName={org.name} members={members} canManage={role === "OWNER"} currentUserId={user.id} />
    </>
  );
}
