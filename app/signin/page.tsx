import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { configuredOAuthProviders, isDemoSignInAvailable, isMailboxAvailable, isSandboxMode } from "@/lib/auth/modes";
import { getCurrentUser } from "@/lib/auth/server";
import { signInLinksLogged } from "@/lib/services/sign-in/sign-in-links";
import { safeCallback } from "./safe-callback";
import { SignInPanel } from "./sign-in-panel";
import { BrandLink } from "@/components/ui/brand";

export const metadata: Metadata = { title: "Sign in" };

type Search = { callbackUrl?: string; error?: string; check?: string; email?: string | string[] };

/** An address to fill in (an invitation's link carries it); nothing when it isn't one plain value. */
function prefillEmail(raw: string | string[] | undefined): string {
  return typeof raw === "string" && raw.length <= 254 ? raw.trim() : "";
}

// GET /signin: magic link by email (`?email=` fills the field in, as invitations link here),
// GitHub/Google and single sign-on (OIDC) when configured, a passkey, and on a local sandbox install (to a loopback client) the demo
// owner in one click.
export default async function SignInPage({ searchParams }: { searchParams: Promise<Search> }) {
  const params = await searchParams;
  const callbackUrl = safeCallback(params.callbackUrl);
  const user = await getCurrentUser();
  if (user && !params.error && !params.check) redirect(callbackUrl);

  const requestHeaders = await headers();
  const demo = await isDemoSignInAvailable(await getDb(), requestHeaders);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <main id="main" className="auth-page" tabIndex={-1}>
        <div className="auth-card">
          <div>
            <BrandLink href="/" style={{ padding: 0, marginBottom: 14 }} />
            <h1>Sign in to the dashboard</h1>
            <p className="lead">Manage campaigns, donations and your team.</p>
          </div>
          <SignInPanel
            callbackUrl={callbackUrl}
            error={params.error ?? null}
            initiallySent={params.check === "email"}
            providers={configuredOAuthProviders()}
            demo={demo}
            sandbox={isSandboxMode()}
            localEmail={{ log: signInLinksLogged(), mailbox: isMailboxAvailable(requestHeaders) }}
            signedInAs={user?.email ?? null}
            initialEmail={prefillEmail(params.email)}
          />
        </div>
      </main>
    </>
  );
}
