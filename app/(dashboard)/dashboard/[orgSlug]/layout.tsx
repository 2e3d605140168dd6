import Link from "next/link";
import type { ReactNode } from "react";
import { SidebarNav } from "@/components/dashboard/nav";
import { orgNavGroups } from "@/components/dashboard/nav-items";
import { OrgSwitcher } from "@/components/dashboard/org-switcher";
import { SignOutButton } from "@/components/dashboard/session-controls";
import { DashboardShell } from "@/components/dashboard/shell";
import { getDb } from "@/db";
import { listOrganizationsForUser } from "@/db/queries/organizations";
import { requireOrg } from "@/lib/auth/server";

// The frame of every page of one organization: switcher, navigation, the signed-in user. It checks
// the session and membership itself, above any loading boundary, so a signed-out visitor gets a
// real redirect (and a non-member a real 404) before anything streams.
export default async function OrgLayout({ children, params }: { children: ReactNode; params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { user, org, role } = await requireOrg(orgSlug);
  const memberships = await listOrganizationsForUser(await getDb(), user.id);
  const orgs = memberships.map((m) => ({ slug: m.org.slug, name: m.org.name, role: m.role, color: m.org.color }));

  return (
    <DashboardShell
      title={org.name}
      sidebar={
        <>
          <OrgSwitcher current={{ slug: org.slug, name: org.name, role, color: org.color }} orgs={orgs} />
          <SidebarNav groups={orgNavGroups(org.slug)} />
          <div className="sidebar-footer">
            <div className="who">
              <strong>{user.name ?? "Signed in"}</strong>
              {user.email}
            </div>
            <Link className="button secondary small" href="/dashboard/security">
              Account security
            </Link>
            <SignOutButton />
          </div>
        </>
      }
    >
      {children}
    </DashboardShell>
  );
}
