"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, firstErrors } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { ConfirmGroup } from "@/components/ui/confirm-group";
import { SelectField, TextAreaField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { currencySymbol, minorToInput, parseMoney } from "@/lib/money";
import { OFFLINE_METHOD_OPTIONS } from "./labels";
import styles from "./ops.module.css";

export type CorrectableGift = {
  id: string;
  amount: number;
  advantageCents: number;
  currency: string;
  /** `YYYY-MM-DD` of the day it was received (UTC). */
  receivedOn: string;
  method: string;
  reference: string | null;
  campaignId: string;
};

type Key = "amount" | "receivedAt" | "method" | "reference" | "campaignId" | "advantageCents";

/**
 * Correct or void a gift recorded by staff or imported (ADMIN): PATCH /api/donations/:id with the
 * fields that changed, or POST /api/donations/:id/void with a reason (a bounced cheque, a
 * mistake), after an inline confirmation. Card gifts are refunded instead, never edited.
 */
export function OfflineGiftActions({
  gift,
  campaigns,
  amountLabel,
}: {
  gift: CorrectableGift;
  campaigns: { value: string; label: string }[];
  amountLabel: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const [mode, setMode] = useState<"idle" | "correct" | "void">("idle");
  const initial = {
    amount: minorToInput(gift.amount, gift.currency),
    advantageCents: minorToInput(gift.advantageCents, gift.currency),
    receivedAt: gift.receivedOn,
    method: gift.method,
    reference: gift.reference ?? "",
    campaignId: gift.campaignId,
  };
  const [values, setValues] = useState(initial);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Key | "reason", string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const correctRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (mode === "correct") document.getElementById("cg-amount")?.focus();
    if (mode === "void") document.getElementById("cg-reason")?.focus();
  }, [mode]);

  function close() {
    setMode("idle");
    setErrors({});
    setFormError(null);
    setValues(initial);
    requestAnimationFrame(() => correctRef.current?.focus());
  }

  function showErrors(fieldErrors: Record<string, string[]>, codes: Parameters<typeof firstErrors>[1], error: string) {
    const found: Partial<Record<Key | "reason", string>> = {};
    for (const [field, message] of Object.entries(firstErrors(fieldErrors, codes))) {
      const key = field.split(".")[0] as Key | "reason";
      if (!found[key]) found[key] = message;
    }
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) document.getElementById(`cg-${first}`)?.focus();
    else setFormError(error);
  }

  async function correct(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const body: Record<string, unknown> = {};
    const found: Partial<Record<Key, string>> = {};
    for (const k of ["amount", "advantageCents"] as const) {
      if (values[k] === initial[k]) continue;
      const parsed = parseMoney(values[k], gift.currency);
      if (!parsed.ok) found[k] = parsed.message;
      else body[k] = parsed.minor ?? 0;
    }
    if (values.receivedAt !== initial.receivedAt) body.receivedAt = values.receivedAt;
    if (values.method !== initial.method) body.method = values.method;
    if (values.reference !== initial.reference) body.reference = values.reference.trim() || null;
    if (values.campaignId !== initial.campaignId) body.campaignId = values.campaignId;
    if (Object.keys(found).length > 0) {
      setErrors(found);
      document.getElementById(`cg-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    if (Object.keys(body).length === 0) {
      setFormError("Nothing changed.");
      return;
    }
    setBusy(true);
    const res = await api("PATCH", `/api/donations/${encodeURIComponent(gift.id)}`, body);
    setBusy(false);
    if (!res.ok) return showErrors(res.fieldErrors, res.codes, res.error);
    toast.show("Gift corrected");
    setMode("idle");
    router.refresh();
  }

  async function voidGift() {
    if (!reason.trim()) {
      setErrors({ reason: "Say why, e.g. “Cheque bounced”" });
      document.getElementById("cg-reason")?.focus();
      return;
    }
    setBusy(true);
    const res = await api("POST", `/api/donations/${encodeURIComponent(gift.id)}/void`, { reason: reason.trim() });
    setBusy(false);
    if (!res.ok) return showErrors(res.fieldErrors, res.codes, res.error);
    toast.show("Gift voided");
    setMode("idle");
    router.refresh();
  }

  const field = (k: Key) => ({
    id: `cg-${k}`,
    value: values[k],
    error: errors[k],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value })),
  });
  const symbol = currencySymbol(gift.currency);

  return (
    <div className="stack" style={{ gap: 12 }}>
      {formError ? (
        <Notice tone="error" live>
          {formError}
        </Notice>
      ) : null}
      {mode === "correct" ? (
        <form className="form" onSubmit={correct} noValidate aria-label="Correct the gift">
          <fieldset className="plain form" disabled={busy}>
            <legend className="sr-only">Correct the gift</legend>
            <TextField {...field("amount")} label="Amount" inputMode="decimal" autoComplete="off" prefix={symbol} />
            <TextField {...field("receivedAt")} label="Date received" type="date" />
            <SelectField {...field("method")} label="Method" options={OFFLINE_METHOD_OPTIONS} />
            <TextField {...field("reference")} label="Reference" optional autoComplete="off" maxLength={100} />
            <SelectField {...field("campaignId")} label="Campaign" options={campaigns} />
            <TextField
              {...field("advantageCents")}
              label="Value received by the donor"
              hint="Goods or services given in return; the receipt's deductible amount is the gift less this."
              inputMode="decimal"
              autoComplete="off"
              prefix={symbol}
            />
          </fieldset>
          <div className="button-row">
            <Button type="submit" loading={busy}>
              Save correction
            </Button>
            <Button variant="ghost" onClick={close} disabled={busy}>
              Cancel
            </Button>
          </div>
        </form>
      ) : mode === "void" ? (
        <ConfirmGroup className={styles.confirm} label="Confirm voiding the gift" onCancel={close}>
          <p>
            Void <strong>{amountLabel}</strong>? It stops counting everywhere and its receipt is marked void (the number is kept).
          </p>
          <TextAreaField
            id="cg-reason"
            label="Reason"
            rows={2}
            maxLength={500}
            value={reason}
            error={errors.reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <div className="button-row">
            <Button variant="danger" loading={busy} onClick={voidGift}>
              Yes, void {amountLabel}
            </Button>
            <Button variant="ghost" onClick={close} disabled={busy}>
              Keep it
            </Button>
          </div>
        </ConfirmGroup>
      ) : (
        <>
          <p className="small muted" style={{ margin: 0 }}>
            Recorded by staff: fix a typo, or void a bounced cheque or a gift recorded by mistake.
          </p>
          <div className="button-row">
            <Button ref={correctRef} variant="secondary" onClick={() => setMode("correct")}>
              Correct
            </Button>
            <Button variant="danger-outline" onClick={() => setMode("void")}>
              Void
            </Button>
          </div>
        </>
      )}
    </div>
  );
}
