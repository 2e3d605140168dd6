"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { useToast } from "@/components/ui/toast";
import styles from "./donor-data.module.css";
import opsStyles from "./ops.module.css";

export type PendingDonorRequest = { id: string; donorId: string; donorLabel: string; createdAt: string };

/**
 * Donors' pending erasure requests (admins), oldest first: each can be approved (the donor is
 * erased: POST …/donor-requests/:id/approve, after an inline confirmation) or rejected. The
 * server-rendered page refreshes after either; an error stays beside the request.
 */
export function DonorRequestsPanel({ orgSlug, requests }: { orgSlug: string; requests: PendingDonorRequest[] }) {
  return (
    <section id="donor-requests" aria-labelledby="donor-requests-title" className={`card ${opsStyles.section}`}>
      <div className={opsStyles.sectionTitle}>
        <h2 id="donor-requests-title">Erasure requests waiting for you</h2>
        <span className="small muted">
          {requests.length === 1 ? "1 donor asked" : `${requests.length} donors asked`} to have their personal data erased.
        </span>
      </div>
      <ul className={styles.requests}>
        {requests.map((r) => (
          <RequestItem key={r.id} orgSlug={orgSlug} request={r} />
        ))}
      </ul>
    </section>
  );
}

function RequestItem({ orgSlug, request }: { orgSlug: string; request: PendingDonorRequest }) {
  const router = useRouter();
  const toast = useToast();
  const [confirming, setConfirming] = useState(false);
  const [working, setWorking] = useState<"approve" | "reject" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const path = `/api/orgs/${encodeURIComponent(orgSlug)}/donor-requests/${encodeURIComponent(request.id)}`;

  async function decide(action: "approve" | "reject") {
    setWorking(action);
    setError(null);
    const res = await api("POST", `${path}/${action}`);
    setWorking(null);
    if (!res.ok) {
      setError(res.error);
      return;
    }
    setConfirming(false);
    toast.show(action === "approve" ? "Donor erased: their donations are kept without personal data" : "Request rejected");
    router.refresh();
  }

  const errorId = `donor-request-${request.id}-error`;
  return (
    <li className={styles.request}>
      <p>
        <Link href={`/dashboard/${orgSlug}/donors/${encodeURIComponent(request.donorId)}`}>{request.donorLabel}</Link>
        <span className="small muted">
          {" "}
          · asked <LocalTime iso={request.createdAt} />
        </span>
      </p>
      {confirming ? (
        <div className={opsStyles.confirm} role="group" aria-label={`Confirm erasing ${request.donorLabel}`}>
          <p>Erase their name, email, messages and dedications now? Their donations and every total stay.</p>
          <div className="row-actions">
            <Button size="small" variant="danger" loading={working === "approve"} onClick={() => decide("approve")} autoFocus>
              Yes, erase donor
            </Button>
            <Button size="small" variant="ghost" onClick={() => setConfirming(false)} disabled={working !== null}>
              Not now
            </Button>
          </div>
        </div>
      ) : (
        <div className="row-actions">
          <Button size="small" variant="danger-outline" onClick={() => setConfirming(true)} aria-describedby={error ? errorId : undefined}>
            Approve and erase<span className="sr-only"> {request.donorLabel}</span>
          </Button>
          <Button size="small" variant="secondary" loading={working === "reject"} onClick={() => decide("reject")}>
            Reject<span className="sr-only"> the request of {request.donorLabel}</span>
          </Button>
        </div>
      )}
      {error ? (
        <p className="error-text" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}
