"use client";

import { useState } from "react";
import { Button, type ButtonSize, type ButtonVariant } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { api } from "./api-client";

/**
 * POST /api/orgs/:slug/processor/onboarding, then on to the returned URL: Stripe's hosted
 * onboarding, or the sandbox's stand-in page.
 */
export function ConnectPayoutsButton({
  orgSlug,
  label = "Connect payouts",
  variant = "primary",
  size = "medium",
}: {
  orgSlug: string;
  label?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
}) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant={variant}
      size={size}
      loading={busy}
      onClick={async () => {
        setBusy(true);
        const res = await api<{ processorAccountId: string; url: string }>(
          "POST",
          `/api/orgs/${encodeURIComponent(orgSlug)}/processor/onboarding`,
        );
        if (res.ok) {
          window.location.assign(res.data.url);
          return;
        }
        setBusy(false);
        toast.show(res.error, "error");
      }}
    >
      {label}
    </Button>
  );
}
