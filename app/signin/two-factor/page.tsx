import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { BrandLink } from "@/components/ui/brand";
import { SignOutButton } from "@/components/dashboard/session-controls";
import { getCurrentSession } from "@/lib/auth/server";
import { getTwoFactorStatus } from "@/lib/services/two-factor/two-factor-status";
import { safeCallback } from "../safe-callback";
import { TwoFactorStep } from "./two-factor-step";

export const metadata: Metadata = { title: "Two-factor authentication" };

// GET /signin/two-factor: the second step of signing in, for an account with two-factor on: a
// code from the authenticator app, a recovery code, or a passkey. The dashboard sends every
// session that has not passed it here first.
export default async function TwoFactorPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  const { callbackUrl: raw } = await searchParams;
  const callbackUrl = safeCallback(raw);
  const current = await getCurrentSession();
  if (!current) redirect(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  if (!current.user.twoFactorEnabledAt || current.session.twoFactorAt !== null) redirect(callbackUrl);
  const status = await getTwoFactorStatus(await getDb(), current.user.id);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <main id="main" className="auth-page" tabIndex={-1}>
        <div className="auth-card">
          <div>
            <BrandLink href="/" style={{ padding: 0, marginBottom: 14 }} />
            <h1>Two-factor authentication</h1>
            <p className="lead">
              Signed in as <strong>{current.user.email}</strong>. Confirm it’s you with your second factor.
            </p>
          </div>
          <TwoFactorStep callbackUrl={callbackUrl} totp={status.totp} passkeys={status.passkeys > 0} />
          <div className="button-row">
            <SignOutButton />
          </div>
        </div>
      </main>
    </>
  );
}
