"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import styles from "./donor-data.module.css";

/**
 * A donor's personal data, for admins: "Export data (JSON)" downloads
 * GET /api/orgs/:idOrSlug/donors/:id/export; "Erase donor…" opens a modal dialog (focus kept
 * inside, Escape closes it) saying what is removed and what stays, then POSTs …/erase and the
 * page refreshes with the anonymized donor. An error stays in the dialog.
 */
export function DonorDataActions({
  orgSlug,
  donorId,
  label,
  erased,
  openPlans,
}: {
  orgSlug: string;
  donorId: string;
  /** The donor's name or email, for the dialog's wording. */
  label: string;
  erased: boolean;
  /** Recurring plans still charging, which the erasure cancels. */
  openPlans: number;
}) {
  const router = useRouter();
  const toast = useToast();
  const dialog = useRef<HTMLDialogElement>(null);
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const path = `/api/orgs/${encodeURIComponent(orgSlug)}/donors/${encodeURIComponent(donorId)}`;

  async function erase() {
    setWorking(true);
    setError(null);
    const res = await api("POST", `${path}/erase`);
    setWorking(false);
    if (!res.ok) {
      setError(res.error);
      return;
    }
    dialog.current?.close();
    toast.show("Donor erased: their donations are kept without personal data");
    router.refresh();
  }

  return (
    <>
      <a className="button secondary" href={`${path}/export`} download>
        Export data (JSON)
      </a>
      {erased ? null : (
        <Button
          variant="danger-outline"
          onClick={() => {
            setError(null);
            dialog.current?.showModal();
          }}
        >
          Erase donor…
        </Button>
      )}
      <dialog ref={dialog} className={styles.dialog} aria-labelledby="erase-donor-title" aria-describedby="erase-donor-what">
        <h2 id="erase-donor-title">Erase {label}?</h2>
        <div id="erase-donor-what">
          <p>This removes their personal data for good:</p>
          <ul>
            <li>their name and email address, on the donor and on every donation;</li>
            <li>messages and dedications they wrote;</li>
            <li>emails to them that are not sent yet, and their account sign-in links;</li>
            {openPlans > 0 ? (
              <li>
                {openPlans === 1
                  ? "their recurring plan, canceled now: no further payments"
                  : `their ${openPlans} recurring plans, canceled now: no further payments`}
                ;
              </li>
            ) : null}
          </ul>
          <p>
            What stays: the money records your books need. Every donation keeps its amount, date, status and campaign, and campaign totals
            and reports do not change. The donor is shown as “Erased donor” from now on.
          </p>
          <p>This cannot be undone.</p>
        </div>
        {error ? (
          <p className="error-text" role="alert">
            {error}
          </p>
        ) : null}
        <div className={styles.actions}>
          <Button variant="ghost" onClick={() => dialog.current?.close()} disabled={working}>
            Keep donor
          </Button>
          <Button variant="danger" loading={working} onClick={erase}>
            Erase donor
          </Button>
        </div>
      </dialog>
    </>
  );
}
