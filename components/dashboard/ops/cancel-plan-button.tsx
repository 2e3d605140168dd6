"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import styles from "./ops.module.css";
import { ConfirmGroup } from "@/components/ui/confirm-group";

/**
 * "Cancel plan" (ADMIN) with an inline confirmation that takes focus; POST
 * /api/recurring-plans/:id/cancel, then the server-rendered list refreshes. An error stays next
 * to the button.
 */
export function CancelPlanButton({ planId, describe }: { planId: string; describe: string }) {
  const router = useRouter();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const open = useRef<HTMLButtonElement>(null);
  const yes = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) yes.current?.focus();
  }, [confirming]);

  function close() {
    setConfirming(false);
    requestAnimationFrame(() => open.current?.focus());
  }

  async function cancelPlan() {
    setWorking(true);
    setError(null);
    const res = await api<{ status: string }>("POST", `/api/recurring-plans/${encodeURIComponent(planId)}/cancel`);
    setWorking(false);
    if (!res.ok) {
      setError(res.error);
      setConfirming(false);
      requestAnimationFrame(() => open.current?.focus());
      return;
    }
    setConfirming(false);
    toast.show(
      res.data.status === "CANCELED"
        ? "Plan canceled: no further payments"
        : "Cancellation requested; the status updates when the processor confirms",
    );
    router.refresh();
  }

  if (confirming) {
    return (
      <ConfirmGroup className={styles.confirm} label={`Confirm canceling ${describe}`} style={{ minWidth: 260 }} onCancel={close}>
        <p>Stop all future payments of this plan?</p>
        <div className="row-actions">
          <Button ref={yes} size="small" variant="danger" loading={working} onClick={cancelPlan}>
            Yes, cancel plan
          </Button>
          <Button size="small" variant="ghost" onClick={close} disabled={working}>
            Keep it
          </Button>
        </div>
      </ConfirmGroup>
    );
  }
  return (
    <div style={{ display: "grid", gap: 4, justifyItems: "start" }}>
      <Button
        ref={open}
        size="small"
        variant="danger-outline"
        onClick={() => setConfirming(true)}
        aria-describedby={error ? `cancel-${planId}-error` : undefined}
      >
        Cancel plan<span className="sr-only"> of {describe}</span>
      </Button>
      {error ? (
        <p className="error-text" id={`cancel-${planId}-error`} role="alert" style={{ maxWidth: 260 }}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
