"use client";

import { useEffect, useRef, useState } from "react";
import { useTranslations } from "use-intl";
import { Button } from "@/components/ui/button";
import styles from "./data-requests.module.css";

type Outcome = { status: "ERASED" | "PENDING" };
/** A problem to show: one of ours, in the page's language, or the API's own sentence about a refused request. */
type Problem = { key: "signedOut" | "tooMany" | "serverError" | "offline" } | { text: string };

/** The filename a download answer names (`Content-Disposition: attachment; filename="…"`). */
function filenameOf(res: Response): string {
  const match = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "");
  return match ? match[1] : "my-data.json";
}

async function errorOf(res: Response): Promise<Problem> {
  if (res.status === 401) return { key: "signedOut" };
  if (res.status === 429) return { key: "tooMany" };
  try {
    const body = (await res.json()) as { error?: string };
    if (body.error && res.status < 500) return { text: body.error };
  } catch {
    // not JSON
  }
  return { key: "serverError" };
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
  const t = useTranslations("account");
  const [error, setError] = useState<Problem | null>(null);
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
      setError({ key: "offline" });
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
      setError({ key: "offline" });
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
        {t("data.erased", { orgName })}
      </p>
    );
  }

  return (
    <>
      <div className={styles.actions}>
        <Button variant="secondary" loading={busy === "export"} onClick={download}>
          {t("data.download")}
        </Button>
        {outcome === "PENDING" || confirming ? null : (
          <Button ref={opener} variant="danger-outline" onClick={() => setConfirming(true)}>
            {t("data.erase")}
          </Button>
        )}
      </div>
      {outcome === "PENDING" ? (
        <p ref={notice} tabIndex={-1} className={styles.notice} role="status">
          {t("data.pending", { orgName })}
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
            {t("data.confirmTitle")}
          </h3>
          <ul>
            <li>{t("data.confirmName", { orgName })}</li>
            <li>{t("data.confirmMessages")}</li>
            <li>{t("data.confirmPlans")}</li>
          </ul>
          <p>{t("data.confirmKept", { orgName })}</p>
          <p>{needsApproval ? t("data.needsApproval", { orgName }) : t("data.immediate")}</p>
          <div className={styles.actions}>
            <Button variant="danger" loading={busy === "erase"} onClick={erase}>
              {needsApproval ? t("data.sendRequest") : t("data.eraseNow")}
            </Button>
            <Button variant="ghost" onClick={close} disabled={busy === "erase"}>
              {t("data.keep")}
            </Button>
          </div>
        </section>
      ) : null}
      {error ? (
        <p className="error-text" role="alert">
          {"key" in error ? t(`data.${error.key}`) : error.text}
        </p>
      ) : null}
    </>
  );
}
