import type { Metadata } from "next";
import Link from "next/link";
import { ApiKeysManager } from "@/components/dashboard/api-keys-manager";
import { Card, PageHeader } from "@/components/ui/card";
import { CopyField } from "@/components/ui/copy-button";
import { Notice } from "@/components/ui/notice";
import { getDb } from "@/db";
import { listApiKeys } from "@/db/queries/api-keys";
import { roleSatisfies } from "@/lib/roles";
import { requireOrg } from "@/lib/auth/server";
import { getEnv } from "@/lib/env";
import { serializeApiKey } from "@/lib/schemas/api-keys";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API access" };

// GET /dashboard/:orgSlug/api-access: the organization's API keys (admins create and revoke them), and curl examples.
export default async function ApiAccessPage({ params }: { params: Promise<{ orgSlug: string }> }) {
  const { orgSlug } = await params;
  const { org, role, user } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/api-access`);
  const appUrl = getEnv().appUrl;
  const isAdmin = roleSatisfies(role, "ADMIN");
  const keys = isAdmin ? (await listApiKeys(await getDb(), org.id)).map(serializeApiKey) : [];

  const examples = [
    `export GOODFUND_API_KEY='<your API key>'`,
    ``,
    `# This organization`,
    `curl -H "Authorization: Bearer $GOODFUND_API_KEY" ${appUrl}/api/orgs/${org.slug}`,
    ``,
    `# Its campaigns`,
    `curl -H "Authorization: Bearer $GOODFUND_API_KEY" ${appUrl}/api/orgs/${org.slug}/campaigns`,
    ``,
    `# Create a draft campaign (an Admin key; amounts are integer cents)`,
    `curl -X POST -H "Authorization: Bearer $GOODFUND_API_KEY" -H "Content-Type: application/json" \\`,
    `     -d '{"title":"Spring appeal","goalAmountCents":500000}' \\`,
    `     ${appUrl}/api/orgs/${org.slug}/campaigns`,
  ].join("\n");

  return (
    <>
      <PageHeader
        eyebrow="Developers"
        title="API access"
        description="Everything the dashboard does is a documented REST API. Servers and integrations authenticate with an API key of this organization."
        actions={
          <a className="button secondary" href="/api/openapi.json">
            OpenAPI reference
          </a>
        }
      />
      <div className="stack">
        {isAdmin ? (
          <ApiKeysManager orgSlug={org.slug} orgName={org.name} keys={keys} />
        ) : (
          <Notice tone="info" title="API keys are managed by admins">
            <p>
              A key can read and change {org.name}&apos;s data, so only admins and owners can create, see and revoke them. Ask an owner on
              the <Link href={`/dashboard/${org.slug}/members`}>Members</Link> page if you need one.
            </p>
          </Notice>
        )}
        <Card title="Try it">
          {/* Focusable: on a phone the examples scroll sideways, and keyboard users must be able to scroll them too. */}
          <pre tabIndex={0} role="region" aria-label="curl examples">
            <code>{examples}</code>
          </pre>
          <ul className="small" style={{ marginBottom: 0 }}>
            <li>
              A key works on {org.name} only, with its role (never more than its creator&apos;s), until it expires or is revoked. Creating
              organizations and managing members or keys needs a person.
            </li>
            <li>
              Scripts you run yourself can use a personal session token instead: on the server,{" "}
              <code>npm run token -- --email {user.email}</code>.
            </li>
          </ul>
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
              Rate limits, per key: the <code>X-RateLimit-*</code> headers say what is left.
            </li>
          </ul>
        </Card>
      </div>
    </>
  );
}
