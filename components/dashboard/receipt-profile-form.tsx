"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";

export type ReceiptProfile = "US" | "CA" | "UK" | "GENERIC";

/** A receipt as the preview shows it (the server renders it with the organization's details). */
export type ReceiptPreview = {
  title: string;
  orgName: string;
  orgLines: string[];
  rows: [string, string][];
  notes: string[];
  signature: string | null;
};

const PROFILES: { value: ReceiptProfile; label: string; hint: string }[] = [
  {
    value: "US",
    label: "United States",
    hint: "The IRS goods-or-services statement, with the deductible amount when the donor received something.",
  },
  {
    value: "CA",
    label: "Canada (official receipts)",
    hint: "CRA official receipts for income tax purposes: the donate form asks for the donor's address, and the receipt email attaches the PDF.",
  },
  {
    value: "UK",
    label: "United Kingdom (Gift Aid)",
    hint: "The donate form offers Gift Aid to UK taxpayers; claims export as HMRC's schedule.",
  },
  { value: "GENERIC", label: "Other countries", hint: "The gift and your own receipt statement, without a country's tax wording." },
];

/**
 * The organization's receipt profile (PATCH /api/orgs/:slug `receiptProfile`, ADMIN), with a live
 * preview: a sample gift's receipt under the profile chosen, before it is saved.
 */
export function ReceiptProfileForm({
  orgSlug,
  initial,
  previews,
  canEdit,
}: {
  orgSlug: string;
  initial: ReceiptProfile;
  previews: Record<ReceiptProfile, ReceiptPreview>;
  canEdit: boolean;
}) {
  const router = useRouter();
  const toast = useToast();
  const [profile, setProfile] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const preview = previews[profile];

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (profile === saved) return;
    setBusy(true);
    setError(null);
    const res = await api("PATCH", `/api/orgs/${encodeURIComponent(orgSlug)}`, { receiptProfile: profile });
    setBusy(false);
    if (!res.ok) {
      setError(res.error);
      return;
    }
    setSaved(profile);
    toast.show("Receipt profile saved");
    router.refresh();
  }

  return (
    <div className="stack">
      <form className="form" onSubmit={submit} noValidate>
        {error ? (
          <Notice tone="error" live>
            {error}
          </Notice>
        ) : null}
        <fieldset className="plain form" disabled={!canEdit || busy}>
          <legend>Receipt profile</legend>
          {PROFILES.map((p) => (
            <div className="field" key={p.value}>
              <div className="check">
                <input
                  type="radio"
                  id={`rp-${p.value}`}
                  name="receiptProfile"
                  value={p.value}
                  checked={profile === p.value}
                  onChange={() => setProfile(p.value)}
                  aria-describedby={`rp-${p.value}-hint`}
                />
                <div>
                  <label htmlFor={`rp-${p.value}`}>{p.label}</label>
                  <p className="hint" id={`rp-${p.value}-hint`}>
                    {p.hint}
                  </p>
                </div>
              </div>
            </div>
          ))}
        </fieldset>
        {canEdit ? (
          <div className="form-actions">
            <Button type="submit" loading={busy} disabled={profile === saved}>
              Save receipt profile
            </Button>
            {profile !== saved ? <span className="small muted">Unsaved: the preview shows the profile chosen.</span> : null}
          </div>
        ) : null}
      </form>
      <section aria-labelledby="receipt-preview-title" aria-live="polite">
        <h3 id="receipt-preview-title" className="small muted" style={{ margin: "0 0 8px" }}>
          Preview: a sample cheque, with benefits the donor received
        </h3>
        <div className="card" style={{ margin: 0, overflowWrap: "anywhere" }}>
          <p style={{ margin: 0, fontWeight: 700, fontSize: "1.1rem" }}>{preview.orgName}</p>
          {preview.orgLines.map((l) => (
            <p key={l} className="small muted" style={{ margin: 0, whiteSpace: "pre-line" }}>
              {l}
            </p>
          ))}
          <p style={{ margin: "16px 0 8px", fontWeight: 700 }}>{preview.title}</p>
          <dl className="kv">
            {preview.rows.map(([label, value]) => (
              <div key={label} style={{ display: "contents" }}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {preview.notes.map((n) => (
            <p key={n} className="small" style={{ marginBottom: 0 }}>
              {n}
            </p>
          ))}
          {preview.signature ? <p className="small muted">{preview.signature}</p> : null}
        </div>
      </section>
    </div>
  );
}
