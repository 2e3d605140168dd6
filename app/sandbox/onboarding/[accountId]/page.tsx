import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { eq } from "drizzle-orm";
import { StatusBadge } from "@/components/ui/badge";
import { Notice } from "@/components/ui/notice";
import { getDb } from "@/db";
import { getMembershipRole } from "@/db/queries/organizations";
import { organizations } from "@/db/schema";
import { isSandboxMode } from "@/lib/auth/modes";
import { requireUser } from "@/lib/auth/server";
import { CompleteOnboardingButton } from "./complete-button";

export const metadata: Metadata = { title: "Sandbox onboarding", robots: { index: false } };

// GET /sandbox/onboarding/:accountId: the sandbox's stand-in for Stripe's hosted onboarding (404 with a Stripe key).
export default async function SandboxOnboarding({ params }: { params: Promise<{ accountId: string }> }) {
  if (!isSandboxMode()) notFound();
  const { accountId } = await params;
  const user = await requireUser(`/sandbox/onboarding/${encodeURIComponent(accountId)}`);
  const db = await getDb();
  const [org] = await db.select().from(organizations).where(eq(organizations.processorAccountId, accountId)).limit(1);
  if (!org) notFound();
  const role = await getMembershipRole(db, org.id, user.id);
  if (!role) notFound();
  const payouts = `/dashboard/${org.slug}/settings/payouts`;
  const done = org.chargesEnabled && org.payoutsEnabled;

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <main id="main" className="auth-page" tabIndex={-1}>
        <div className="auth-card" style={{ maxWidth: 520 }}>
          <div>
            <p className="badge pending plain" style={{ marginBottom: 12 }}>
              Sandbox — no real account
            </p>
            <h1>Connect payouts for {org.name}</h1>
            <p className="lead">
              With Stripe this step is Stripe’s own onboarding form (identity, bank account). In sandbox mode nothing is collected:
              completing it marks the account able to take donations and pay out, as Stripe’s <code>account.updated</code> event would.
            </p>
          </div>
          <dl className="kv">
            <dt>Account</dt>
            <dd>
              <code>{accountId}</code>
            </dd>
            <dt>Organization</dt>
            <dd>
              {org.name} <StatusBadge status={org.status} />
            </dd>
          </dl>
          {done ? (
            <Notice tone="success" title="Onboarding is complete">
              <p>This account can already take donations and pay out.</p>
            </Notice>
          ) : role !== "OWNER" ? (
            <Notice tone="warn" title="Only an owner can do this">
              <p>Ask an owner of {org.name} to connect payouts.</p>
            </Notice>
          ) : (
            <CompleteOnboardingButton accountId={accountId} returnTo={`${payouts}?onboarding=done`} />
          )}
          <Link href={`${payouts}${done ? "" : "?onboarding=refresh"}`} className="button secondary">
            Back to the dashboard
          </Link>
        </div>
      </main>
    </>
  );
}
