"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import Link from "next/link";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";

/**
 * The owner's switch for the organization's `requireTwoFactor` (PATCH /api/orgs/:idOrSlug). It
 * needs the owner's own two-factor, passed within 15 minutes: the shared dialog asks for it.
 */
export function RequireTwoFactorForm({ orgSlug, initial, ownTwoFactor }: { orgSlug: string; initial: boolean; ownTwoFactor: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const [on, setOn] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const res = await api("PATCH", `/api/orgs/${encodeURIComponent(orgSlug)}`, { requireTwoFactor: on });
    setBusy(false);
    if (!res.ok) return setError(res.error);
    toast.show(on ? "Two-factor authentication is now required" : "Two-factor authentication is no longer required");
    router.refresh();
  }

  return (
    <form className="form" onSubmit={save} noValidate>
      {error ? (
        <Notice tone="error" live>
          {error}
        </Notice>
      ) : null}
      {!ownTwoFactor && !initial ? (
        <p style={{ margin: 0 }}>
          Turn on two-factor authentication for your own account first, on your <Link href="/dashboard/security">Security page</Link>.
        </p>
      ) : null}
      <CheckboxField
        id="require-two-factor"
        label="Require two-factor authentication for every member"
        hint="Members without it are walked through setting it up before they can open the organization. API keys keep working."
        checked={on}
        onChange={(e) => setOn(e.target.checked)}
        disabled={!ownTwoFactor && !initial}
      />
      <div className="button-row">
        <Button type="submit" loading={busy} disabled={on === initial}>
          Save
        </Button>
      </div>
    </form>
  );
}
