import type { Metadata } from "next";
import { SecretField } from "@/components/dashboard/secret-field";
import { Card, PageHeader } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy-button";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { getEnv } from "@/lib/env";
import { getSessionJwt, requireOrg } from "@/lib/auth/server";

export const metadata: Metadata = { title: "API access" };

// GET /dashboard/:orgSlug/api-access: how to get a token, this session's token, and curl examples.
export default async function ApiAccessPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { org, user } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/api-access`);
  const session = await getSessionJwt();
  const appUrl = getEnv().appUrl;
  const hours = Math.round((getEnv().SESSION_MAX_AGE_SECONDS / 3600) * 10) / 10;

  const examples = [
    `export TOKEN='<your token>'`,
    ``,
    `# Your organizations`,
    `curl -H "Authorization: Bearer $TOKEN" ${appUrl}/api/orgs`,
    ``,
    `# Campaigns of ${org.name}`,
    `curl -H "Authorization: Bearer $TOKEN" ${appUrl}/api/orgs/${org.slug}/campaigns`,
    ``,
    `# Create a draft campaign (amounts are integer cents)`,
    `curl -X POST -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\`,
    `     -d '{"title":"Spring appeal","goalAmountCents":500000}' \\`,
    `     ${appUrl}/api/orgs/${org.slug}/campaigns`,
  ].join("\n");

  return (
    <>
      <PageHeader
        eyebrow="Developers"
        title="API access"
        description="Everything the dashboard does is a documented REST API. Authenticate with a Bearer token: the same signed session token the dashboard uses."
        actions={
          <a className="button secondary" href="/api/openapi.json">
            OpenAPI reference
          </a>
        }
      />
      <div className="stack">
        <Card
          title="Get a token from the command line"
          description="On the server's machine, in the project folder, print a token for any email address:"
        >
          <pre>
            <code>npm run token -- --email {user.email}</code>
          </pre>
          <p className="small muted" style={{ marginBottom: 0 }}>
            Add <code>--hours 8</code> for a longer-lived one. A token for an address that belongs to no user yet creates that user on first
            use.
          </p>
        </Card>
        <Card
          title="Or use this session's token"
          description={`The token of your current dashboard session (${user.email}). Treat it like a password.`}
        >
          {session ? (
            <div className="stack" style={{ gap: 10 }}>
              <SecretField
                id="session-token"
                label="Session token"
                value={session.token}
                hint={`Valid for ${hours} hour${hours === 1 ? "" : "s"} after your last activity; it can't be revoked early, so keep it private.`}
              />
              {session.expiresAt ? (
                <p className="small muted" style={{ margin: 0 }}>
                  Expires <LocalTime iso={session.expiresAt.toISOString()} />.
                </p>
              ) : null}
            </div>
          ) : (
            <Notice tone="warn">
              <p>No session cookie was found on this request. Sign out and in again, or use the command above.</p>
            </Notice>
          )}
        </Card>
        <Card title="Try it">
          <pre>
            <code>{examples}</code>
          </pre>
        </Card>
        <Card title="Reference">
          <CopyField
            id="openapi-url"
            label="OpenAPI 3.1 document"
            value={`${appUrl}/api/openapi.json`}
            hint="Import it into Postman, Insomnia or an API client generator."
          />
          <ul className="small" style={{ marginBottom: 0 }}>
            <li>
              Errors: <code>{`{ "error", "status", "details"? }`}</code>; validation errors list <code>details.fieldErrors</code> by field.
            </li>
            <li>Money is always integer cents; times are ISO 8601 UTC.</li>
            <li>
              Rate limits: the <code>X-RateLimit-*</code> headers say what is left.
            </li>
          </ul>
        </Card>
      </div>
    </>
  );
}
