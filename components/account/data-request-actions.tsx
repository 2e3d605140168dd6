"use client";

import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import styles from "./data-requests.module.css";

type Outcome = { status: "ERASED" | "PENDING" };

/** The filename a download answer names (`Content-Disposition: attachment; filename="…"`). */
function filenameOf(res: Response): string {
  const match = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "");
  return match ? match[1] : "my-data.json";
}

async function errorOf(res: Response): Promise<string> {
  if (res.status === 401) return "You were signed out. Sign in again to continue.";
  if (res.status === 429) return "Too many requests. Wait a minute and try again.";
  try {
    const body = (await res.json()) as { error?: string };
    if (body.error && res.status < 500) return body.error;
  } catch {
    // not JSON
  }
  return "Something went wrong on our side. Please try again.";
}

/**
 * "Download my data" (POST …/data-export, saved as the JSON file it answers) and "Erase my
 * personal data…" with a confirmation panel that takes focus and says what stays; the answer
 * (erased and signed out, or waiting for the organization's review) replaces the buttons.
 */
export function DataRequestActions({
  apiBase,
  orgName,
  needsApproval,
  pendingSince,
}: {
  apiBase: string;
  orgName: string;
  needsApproval: boolean;
  /** When an erasure request of theirs already waits for review. */
  pendingSince: string | null;
}) {
  const [busy, setBusy] = useState<"export" | "erase" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<Outcome["status"] | null>(pendingSince ? "PENDING" : null);
  const heading = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const notice = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (confirming) heading.current?.focus();
  }, [confirming]);

  async function download() {
    setBusy("export");
    setError(null);
    try {
      const res = await fetch(`${apiBase}/data-export`, { method: "POST", credentials: "same-origin" });
      if (!res.ok) {
        setError(await errorOf(res));
        return;
      }
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = filenameOf(res);
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
    } finally {
      setBusy(null);
    }
  }

  async function erase() {
    setBusy("erase");
    setError(null);
    try {
      const res = await fetch(`${apiBase}/erasure`, { method: "POST", credentials: "same-origin" });
      if (!res.ok) {
        setError(await errorOf(res));
        return;
      }
      const body = (await res.json()) as Outcome;
      setConfirming(false);
      setOutcome(body.status);
      requestAnimationFrame(() => notice.current?.focus());
    } catch {
      setError("Could not reach the server. Check your connection and try again.");
    } finally {
      setBusy(null);
    }
  }

  function close() {
    setConfirming(false);
    requestAnimationFrame(() => opener.current?.focus());
  }

  if (outcome === "ERASED") {
    return (
      <p ref={notice} tabIndex={-1} className={styles.notice} role="status">
        Your personal data was erased and you are signed out. {orgName} keeps your gifts for its accounts, without your name or email.
      </p>
    );
  }

  return (
    <>
      <div className={styles.actions}>
        <Button variant="secondary" loading={busy === "export"} onClick={download}>
          Download my data (JSON)
        </Button>
        {outcome === "PENDING" || confirming ? null : (
          <Button ref={opener} variant="danger-outline" onClick={() => setConfirming(true)}>
            Erase my personal data…
          </Button>
        )}
      </div>
      {outcome === "PENDING" ? (
        <p ref={notice} tabIndex={-1} className={styles.notice} role="status">
          Your request to erase your personal data was sent. {orgName} reviews such requests before anything is erased.
        </p>
      ) : null}
      {confirming ? (
        <section
          className={styles.panel}
          aria-labelledby="erase-me-title"
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.preventDefault();
              close();
            }
          }}
        >
          <h3 id="erase-me-title" ref={heading} tabIndex={-1}>
            Erase your personal data?
          </h3>
          <ul>
            <li>Your name and email address are removed from your gifts and from {orgName}&apos;s records.</li>
            <li>Messages and dedications you wrote are removed.</li>
            <li>Your recurring gifts are canceled: no further payments.</li>
          </ul>
          <p>Your gifts stay in {orgName}&apos;s accounts, which it must keep, but without anything that says they were yours.</p>
          <p>
            {needsApproval
              ? `${orgName} reviews these requests first: nothing is erased until it approves.`
              : "This happens now and cannot be undone. You will be signed out."}
          </p>
          <div className={styles.actions}>
            <Button variant="danger" loading={busy === "erase"} onClick={erase}>
              {needsApproval ? "Send my request" : "Erase my data"}
            </Button>
            <Button variant="ghost" onClick={close} disabled={busy === "erase"}>
              Keep my data
            </Button>
          </div>
        </section>
      ) : null}
      {error ? (
        <p className="error-text" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
