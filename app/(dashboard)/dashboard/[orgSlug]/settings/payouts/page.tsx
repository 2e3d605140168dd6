import type { Metadata } from "next";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { ConnectPayoutsButton } from "@/components/dashboard/connect-payouts-button";
import { Badge, StatusBadge } from "@/components/ui/badge";
import { Card, PageHeader } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { isSandboxMode } from "@/lib/auth/modes";
import { requireOrg } from "@/lib/auth/server";

export const metadata: Metadata = { title: "Payouts" };

type Props = { params: Promise<{ orgSlug: string }>; searchParams: Promise<{ onboarding?: string }> };

function YesNo({ value }: { value: boolean }) {
  return value ? <Badge tone="ok">Enabled</Badge> : <Badge tone="draft">Not yet</Badge>;
}

// GET /dashboard/:orgSlug/settings/payouts: the payout account (where onboarding returns).
export default async function PayoutsSettings({ params, searchParams }: Props) {
  const { orgSlug } = await params;
  const { onboarding } = await searchParams;
  const { org, role } = await requireOrg(orgSlug, `/dashboard/${orgSlug}/settings/payouts`);
  const connected = org.chargesEnabled && org.payoutsEnabled;
  const sandbox = isSandboxMode();
  const waiting = onboarding === "done" && !connected;

  return (
    <>
      <PageHeader
        eyebrow="Settings"
        title="Payouts"
        description="Donations are paid into your organization's own account; Goodfund never holds the money."
      />
      <div className="stack">
        <AutoRefresh active={waiting} />
        {onboarding === "done" && connected ? (
          <Notice tone="success" title="Payouts connected" live>
            <p>{org.name} can take donations now. Published campaigns accept gifts right away.</p>
          </Notice>
        ) : null}
        {waiting ? (
          <Notice tone="info" title="Finishing up…" live>
            <p>Waiting for the payment processor to confirm the account. This page updates by itself.</p>
          </Notice>
        ) : null}
        {onboarding === "refresh" && !connected ? (
          <Notice tone="warn" title="Onboarding is not finished" live>
            <p>Pick up where you left off: the details you already gave are kept.</p>
          </Notice>
        ) : null}
        <Card
          title="Payout account"
          description={sandbox ? "Sandbox mode: a stand-in account, no real money moves." : "A Stripe Connect account."}
        >
          <dl className="kv">
            <dt>Status</dt>
            <dd>
              <StatusBadge status={org.status} />
            </dd>
            <dt>Account ID</dt>
            <dd>{org.processorAccountId ? <code>{org.processorAccountId}</code> : <span className="muted">Not connected</span>}</dd>
            <dt>Charges</dt>
            <dd>
              <YesNo value={org.chargesEnabled} />
            </dd>
            <dt>Payouts</dt>
            <dd>
              <YesNo value={org.payoutsEnabled} />
            </dd>
            <dt>Currency</dt>
            <dd>{org.currency.toUpperCase()}</dd>
          </dl>
          {!connected ? (
            <div className="button-row" style={{ marginTop: 18 }}>
              {role === "OWNER" ? (
                <ConnectPayoutsButton orgSlug={org.slug} label={org.processorAccountId ? "Continue onboarding" : "Connect payouts"} />
              ) : (
                <p className="muted small" style={{ margin: 0 }}>
                  Only an owner can connect the payout account.
                </p>
              )}
            </div>
          ) : null}
        </Card>
      </div>
    </>
  );
}
