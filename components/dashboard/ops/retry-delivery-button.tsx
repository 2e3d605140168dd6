"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";

/** POST …/deliveries/:id/retry: sends that delivery's event again now; an error stays beside the button. */
export function RetryDeliveryButton({
  orgSlug,
  endpointId,
  deliveryId,
  label,
}: {
  orgSlug: string;
  endpointId: string;
  deliveryId: string;
  label: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function retry() {
    setBusy(true);
    setError(null);
    const res = await api(
      "POST",
      `/api/orgs/${encodeURIComponent(orgSlug)}/webhook-endpoints/${encodeURIComponent(endpointId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
    );
    setBusy(false);
    if (!res.ok) {
      setError(res.error);
      return;
    }
    toast.show("Retry queued: the new attempt appears at the top of the log");
    router.refresh();
  }
  return (
    <div style={{ display: "grid", gap: 4, justifyItems: "start" }}>
      <Button
        size="small"
        variant="secondary"
        loading={busy}
        onClick={retry}
        aria-describedby={error ? `retry-${deliveryId}-error` : undefined}
      >
        Retry<span className="sr-only"> {label}</span>
      </Button>
      {error ? (
        <p className="error-text" id={`retry-${deliveryId}-error`} role="alert" style={{ maxWidth: 220 }}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
