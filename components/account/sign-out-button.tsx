"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import styles from "./account.module.css";

/** Signs the donor out of this organization's account (DELETE …/session clears the cookie), then shows the page signed out. */
export function SignOutButton({ orgSlug }: { orgSlug: string }) {
  const t = useTranslations("account");
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function signOut() {
    setBusy(true);
    setFailed(false);
    try {
      const res = await fetch(`/api/donor/orgs/${encodeURIComponent(orgSlug)}/session`, { method: "DELETE", credentials: "same-origin" });
      // 401: already signed out (the cookie expired); the page shows that too.
      if (res.ok || res.status === 401) {
        window.location.reload();
        return;
      }
      setFailed(true);
    } catch {
      setFailed(true);
    }
    setBusy(false);
  }

  return (
    <div>
      <button className={styles.secondary} type="button" onClick={signOut} disabled={busy} aria-busy={busy || undefined}>
        {t("signOut.button")}
      </button>
      {failed && (
        <p className={styles.alert} role="alert">
          {t("signOut.failed")}
        </p>
      )}
    </div>
  );
}
