"use client";

import { useEffect, useRef, useState } from "react";
import { api, setSecondFactorPrompt } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import styles from "./security.module.css";
import { SecondFactorForm } from "./second-factor-form";

type Pending = { resolve: (passed: boolean) => void; totp: boolean; passkeys: boolean; reason: string };

/**
 * The dialog every dashboard page shares: when the API refuses an action for want of a recent
 * second factor, it asks for one over the page (the form underneath keeps what was typed), and
 * the request is sent again once it is passed (components/dashboard/api-client.ts).
 */
export function SecondFactorPrompt() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  useEffect(
    () =>
      setSecondFactorPrompt(async (reason) => {
        const status = await api<{ enabled: boolean; totp: boolean; passkeys: number; recoveryCodesLeft: number }>(
          "GET",
          "/api/me/two-factor",
        );
        if (!status.ok || !status.data.enabled) return false;
        return new Promise<boolean>((resolve) => {
          setPending({ resolve, totp: status.data.totp, passkeys: status.data.passkeys > 0, reason });
        });
      }),
    [],
  );

  useEffect(() => {
    if (pending && !dialog.current?.open) dialog.current?.showModal();
  }, [pending]);

  function finish(passed: boolean) {
    pending?.resolve(passed);
    setPending(null);
    dialog.current?.close();
  }

  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby="second-factor-title"
      aria-describedby="second-factor-why"
      onCancel={(e) => {
        e.preventDefault();
        finish(false);
      }}
    >
      <h2 id="second-factor-title">Confirm it’s you</h2>
      <p id="second-factor-why">
        {pending?.reason === "two_factor_required"
          ? "This organization requires two-factor authentication. Enter your code to continue."
          : "This action needs your second factor within the last 15 minutes. Enter your code and it goes ahead."}
      </p>
      {pending ? (
        <SecondFactorForm idPrefix="prompt" totp={pending.totp} passkeys={pending.passkeys} onPassed={() => finish(true)} />
      ) : null}
      <div className={styles.dialogActions}>
        <Button variant="ghost" onClick={() => finish(false)}>
          Cancel
        </Button>
      </div>
    </dialog>
  );
}
