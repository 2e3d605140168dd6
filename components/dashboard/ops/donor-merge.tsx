"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { ConfirmGroup } from "@/components/ui/confirm-group";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";

export type MergeCandidate = { id: string; label: string; email: string | null; total: string; gifts: number };

/**
 * Possible duplicates of this donor (same name, another email), each with "Merge into this
 * donor" (POST /api/donors/:id/merge), confirmed in place: the other record's gifts, plans, notes
 * and tags move here and it is removed. Escape or "Cancel" backs out.
 */
export function DonorMerge({ donorId, name, candidates }: { donorId: string; name: string; candidates: MergeCandidate[] }) {
  const router = useRouter();
  const toast = useToast();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function merge(sourceDonorId: string) {
    setBusy(true);
    setError(null);
    const res = await api("POST", `/api/donors/${encodeURIComponent(donorId)}/merge`, { sourceDonorId });
    setBusy(false);
    if (!res.ok) {
      setError(res.error);
      return;
    }
    setConfirming(null);
    toast.show("Donors merged: the gifts and totals are now on this record");
    router.refresh();
  }

  if (candidates.length === 0) return <p className="muted small">No other donor has this name.</p>;
  return (
    <div className="stack">
      {error ? (
        <Notice tone="error" live>
          {error}
        </Notice>
      ) : null}
      <ul className="plain-list stack" aria-label="Possible duplicates">
        {candidates.map((c) => (
          <li key={c.id}>
            <p style={{ margin: 0 }}>
              <strong>{c.label}</strong> · {c.email ?? "no email"} · {c.total} in {c.gifts} {c.gifts === 1 ? "gift" : "gifts"}
            </p>
            {confirming === c.id ? (
              <ConfirmGroup
                label={`Merge ${c.email ?? c.label} into ${name}?`}
                onCancel={() => setConfirming(null)}
                className="form-actions"
              >
                <span className="small">
                  Move every gift, plan, note and tag of {c.email ?? c.label} to this donor and remove that record?
                </span>
                <Button variant="danger-outline" disabled={busy} onClick={() => void merge(c.id)} autoFocus>
                  {busy ? "Merging…" : "Confirm merge"}
                </Button>
                <Button variant="secondary" disabled={busy} onClick={() => setConfirming(null)}>
                  Cancel
                </Button>
              </ConfirmGroup>
            ) : (
              <Button variant="secondary" onClick={() => setConfirming(c.id)} aria-label={`Merge ${c.email ?? c.label} into this donor`}>
                Merge into this donor
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
