import type { Metadata } from "next";
import Link from "next/link";
import { CreateOrgForm } from "@/components/dashboard/create-org-form";
import { OrgAvatar } from "@/components/dashboard/org-switcher";
import { SignOutButton } from "@/components/dashboard/session-controls";
import { StatusBadge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { getDb } from "@/db";
import { listOrganizationsForUser } from "@/db/queries/organizations";
import { requireUser } from "@/lib/auth/server";
import { SimpleTop } from "@/components/ui/brand";

export const metadata: Metadata = { title: "Organizations" };

const ROLE_LABEL = { OWNER: "Owner", ADMIN: "Admin", MEMBER: "Member" } as const;

// GET /dashboard: the organizations the user belongs to (pick one), or the first one to create.
export default async function DashboardHome({ searchParams }: { searchParams: Promise<{ new?: string }> }) {
  const user = await requireUser("/dashboard");
  const { new: wantsNew } = await searchParams;
  const orgs = await listOrganizationsForUser(await getDb(), user.id);
  const showCreate = orgs.length === 0 || wantsNew === "1";

  return (
    <>
      <SimpleTop home="/dashboard">
        <div className="button-row">
          <span className="small muted who-email" style={{ overflowWrap: "anywhere" }}>
            {user.email}
          </span>
          <Link className="button secondary small" href="/dashboard/security">
            Security
          </Link>
          <SignOutButton />
        </div>
      </SimpleTop>
      <main id="main" className="simple-main" tabIndex={-1}>
        {orgs.length === 0 ? (
          <div className="stack">
            <EmptyState title="Create your organization" icon="✦">
              An organization holds your campaigns, donations and team. You become its owner, and you can invite others once it exists.
            </EmptyState>
            <Card title="New organization" id="create-org">
              <CreateOrgForm defaultEmail={user.email} autoFocus />
            </Card>
          </div>
        ) : (
          <div className="stack">
            <div className="page-header">
              <div>
                <h1>Your organizations</h1>
                <p>Choose one to manage. You can switch at any time from the sidebar.</p>
              </div>
              {!showCreate ? (
                <Link className="button secondary" href="/dashboard?new=1#create-org">
                  New organization
                </Link>
              ) : null}
            </div>
            <ul className="stack plain-list" aria-label="Organizations">
              {orgs.map(({ org, role }) => (
                <li key={org.id}>
                  <Link href={`/dashboard/${org.slug}`} className="card org-card">
                    <OrgAvatar name={org.name} color={org.color} size={40} />
                    <span className="org-text">
                      <strong>{org.name}</strong>
                      <span className="small muted">
                        /o/{org.slug} · {ROLE_LABEL[role]}
                      </span>
                    </span>
                    <StatusBadge status={org.status} />
                  </Link>
                </li>
              ))}
            </ul>
            {showCreate ? (
              <Card title="New organization" id="create-org">
                <CreateOrgForm defaultEmail={user.email} autoFocus />
              </Card>
            ) : null}
          </div>
        )}
      </main>
    </>
  );
}
