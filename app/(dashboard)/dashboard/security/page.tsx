import type { Metadata } from "next";
import Link from "next/link";
import { SignOutButton } from "@/components/dashboard/session-controls";
import { SecuritySettings } from "@/components/security/security-settings";
import { PageHeader } from "@/components/ui/card";
import { SimpleTop } from "@/components/ui/brand";
import { getDb } from "@/db";
import { findOrganization, getMembershipRole } from "@/db/queries/organizations";
import { listPasskeys } from "@/db/queries/passkeys";
import { listActiveSessions } from "@/db/queries/sessions";
import { getCurrentSession, requireUser } from "@/lib/auth/server";
import { getEnv } from "@/lib/env";
import { serializePasskey, serializeSession } from "@/lib/schemas/account-security";
import { getTwoFactorStatus } from "@/lib/services/two-factor/two-factor-status";

export const metadata: Metadata = { title: "Security" };

// GET /dashboard/security: the signed-in person's two-factor methods, passkeys and sessions.
// `?required=<orgSlug>`: an organization that requires two-factor sent them here to set it up.
export default async function SecurityPage({ searchParams }: { searchParams: Promise<{ required?: string }> }) {
  const { required: requiredSlug } = await searchParams;
  const user = await requireUser(`/dashboard/security${requiredSlug ? `?required=${encodeURIComponent(requiredSlug)}` : ""}`);
  const current = await getCurrentSession();
  const db = await getDb();
  const [status, passkeys, sessions] = await Promise.all([
    getTwoFactorStatus(db, user.id),
    listPasskeys(db, user.id),
    listActiveSessions(db, user.id, getEnv().SESSION_MAX_AGE_SECONDS),
  ]);
  let required: { slug: string; name: string; passed: boolean } | null = null;
  if (typeof requiredSlug === "string" && requiredSlug.length <= 100) {
    const org = await findOrganization(db, requiredSlug);
    if (org?.requireTwoFactor && (await getMembershipRole(db, org.id, user.id))) {
      required = { slug: org.slug, name: org.name, passed: current?.session.twoFactorAt != null };
    }
  }
  const sid = current?.session.sid ?? null;
  return (
    <>
      <SimpleTop home="/dashboard">
        <div className="button-row">
          <span className="small muted who-email" style={{ overflowWrap: "anywhere" }}>
            {user.email}
          </span>
          <SignOutButton />
        </div>
      </SimpleTop>
      <main id="main" className="simple-main" tabIndex={-1}>
        <p className="small" style={{ marginTop: 0 }}>
          <Link href="/dashboard">← Your organizations</Link>
        </p>
        <PageHeader
          eyebrow="Your account"
          title="Security"
          description="Two-factor authentication, passkeys and where you are signed in. These settings are yours, in every organization."
        />
        <SecuritySettings
          status={status}
          passkeys={passkeys.map(serializePasskey)}
          sessions={sessions.map((s) => serializeSession(s, sid))}
          required={required}
        />
      </main>
    </>
  );
}
