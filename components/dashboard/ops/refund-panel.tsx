"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { AutoRefresh } from "@/components/dashboard/auto-refresh";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import styles from "./ops.module.css";
import { ConfirmGroup } from "@/components/ui/confirm-group";

type Result = { tone: "success" | "info" | "error"; title: string; message: string };

/**
 * Refund in full (ADMIN): a "Refund donation" button, an inline confirmation that takes focus
 * (Escape or "Keep it" puts focus back), then POST /api/donations/:id/refund. The outcome stays
 * on the page; the server-rendered status refreshes (and keeps refreshing while the processor
 * has not confirmed yet).
 */
export function RefundPanel({
  donationId,
  status,
  amountLabel,
  chargeLabel,
  canRefund,
}: {
  donationId: string;
  status: string;
  amountLabel: string;
  /** What goes back to the card when the donor also covered the fees; null otherwise. */
  chargeLabel: string | null;
  canRefund: boolean;
}) {
  const router = useRouter();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [waiting, setWaiting] = useState(false);
  const refundRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  useEffect(() => {
    if (result) resultRef.current?.focus();
  }, [result]);
  // Once the refund shows up, stop refreshing.
  const awaitingRefund = waiting && status !== "REFUNDED";

  function cancel() {
    setConfirming(false);
    requestAnimationFrame(() => refundRef.current?.focus());
  }

  async function refund() {
    setWorking(true);
    const res = await api<{ status: string }>("POST", `/api/donations/${encodeURIComponent(donationId)}/refund`);
    setWorking(false);
    setConfirming(false);
    if (!res.ok) {
      setResult({ tone: "error", title: "The refund did not go through", message: res.error });
      router.refresh();
      return;
    }
    if (res.data.status === "REFUNDED") {
      setResult({
        tone: "success",
        title: "Donation refunded",
        message: `${chargeLabel ?? amountLabel} is on its way back to the donor's card; banks usually show it within 5–10 days.`,
      });
      toast.show("Donation refunded");
    } else {
      setResult({
        tone: "info",
        title: "Refund requested",
        message:
          "The payment processor accepted the refund. The status changes to Refunded as soon as it confirms; this page updates by itself.",
      });
      setWaiting(true);
    }
    router.refresh();
  }

  return (
    <div className="stack" style={{ gap: 12 }}>
      <AutoRefresh active={awaitingRefund} />
      {result ? (
        <div ref={resultRef} tabIndex={-1} style={{ outline: "none" }}>
          <Notice tone={result.tone} title={result.title} live>
            <p>{result.message}</p>
          </Notice>
        </div>
      ) : null}
      {status === "SUCCEEDED" ? (
        canRefund ? (
          confirming ? (
            <ConfirmGroup className={styles.confirm} label="Confirm the refund" onCancel={cancel}>
              <p>
                Refund <strong>{chargeLabel ?? amountLabel}</strong> to the donor&apos;s card? This can&apos;t be undone, and the gift stops
                counting toward the campaign.
              </p>
              <div className="button-row">
                <Button ref={confirmRef} variant="danger" loading={working} onClick={refund}>
                  Yes, refund {chargeLabel ?? amountLabel}
                </Button>
                <Button variant="ghost" onClick={cancel} disabled={working}>
                  Keep it
                </Button>
              </div>
            </ConfirmGroup>
          ) : (
            <>
              <p className="small muted" style={{ margin: 0 }}>
                Sends the whole gift{chargeLabel ? ", fees the donor covered included," : ""} back to the donor&apos;s card.
              </p>
              <div>
                <Button ref={refundRef} variant="danger-outline" onClick={() => setConfirming(true)}>
                  Refund donation
                </Button>
              </div>
            </>
          )
        ) : (
          <p className="small muted" style={{ margin: 0 }}>
            Admins and owners of this organization can refund a donation.
          </p>
        )
      ) : result?.tone === "success" ? null : (
        <p className="small muted" style={{ margin: 0 }}>
          {status === "REFUNDED"
            ? "This donation has been refunded."
            : status === "DISPUTED"
              ? "The card holder disputed this payment; the card network decides where the money goes, so it can't be refunded here."
              : "Only a succeeded donation can be refunded."}
        </p>
      )}
    </div>
  );
}
