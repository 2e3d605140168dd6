"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";

/** POST /api/sandbox/accounts/:id/complete, then back to the payouts settings. */
export function CompleteOnboardingButton({ accountId, returnTo }: { accountId: string; returnTo: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="stack" style={{ gap: 10 }}>
      {error ? (
        <Notice tone="error" live>
          {error}
        </Notice>
      ) : null}
      <Button
        size="large"
        block
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          const res = await api("POST", `/api/sandbox/accounts/${encodeURIComponent(accountId)}/complete`);
          if (res.ok) {
            router.push(returnTo);
            return;
          }
          setBusy(false);
          setError(res.error);
        }}
      >
        Complete onboarding
      </Button>
    </div>
  );
}
