"use client";

import { useState } from "react";
import { useTranslations } from "use-intl";
import styles from "./account.module.css";

/** The unsubscribe link's one action: a button (opening the link changes nothing, as mail scanners open links too). */
export function UnsubscribeReminders({ token, orgName }: { token: string; orgName: string }) {
  const t = useTranslations("account.reminders");
  const [state, setState] = useState<"idle" | "sending" | "done" | "invalid">("idle");
  async function stop() {
    setState("sending");
    const res = await fetch("/api/public/reminders/unsubscribe", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token }),
    }).catch(() => null);
    setState(res?.ok ? "done" : "invalid");
  }
  if (state === "done") return <p role="status">{t("done", { orgName })}</p>;
  if (state === "invalid") return <p role="alert">{t("invalid")}</p>;
  return (
    <button className={styles.submit} type="button" onClick={stop} disabled={state === "sending"}>
      {t("button")}
    </button>
  );
}
