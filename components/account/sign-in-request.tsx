"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import { useTranslations } from "use-intl";
import { useLocale } from "@/components/i18n/provider";
import styles from "./account.module.css";

type Problem = "emailMissing" | "emailInvalid" | "tooMany" | "serverError" | "offline";
type State = { kind: "idle" } | { kind: "sending" } | { kind: "sent"; email: string } | { kind: "error"; problem: Problem };

/**
 * "Email me a sign-in link": asks the public API for a donor sign-in link, in the page's
 * language (the email is written in it). The answer never says whether the address is a donor's
 * (the API answers the same either way), so neither does the confirmation.
 */
export function SignInRequest({
  orgSlug,
  orgName,
  again = false,
}: {
  orgSlug: string;
  orgName: string;
  /** The donor's earlier link did not work: the button asks for a new one. */
  again?: boolean;
}) {
  const t = useTranslations("account");
  const { locale } = useLocale();
  const [state, setState] = useState<State>({ kind: "idle" });
  const emailRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = emailRef.current?.value.trim() ?? "";
    if (!email || !emailRef.current?.checkValidity()) {
      setState({ kind: "error", problem: "emailMissing" });
      emailRef.current?.focus();
      return;
    }
    setState({ kind: "sending" });
    try {
      const res = await fetch(`/api/public/orgs/${encodeURIComponent(orgSlug)}/donor-sessions`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ email, locale }),
      });
      if (res.status === 202) setState({ kind: "sent", email });
      else if (res.status === 429) setState({ kind: "error", problem: "tooMany" });
      else if (res.status === 400) setState({ kind: "error", problem: "emailInvalid" });
      else setState({ kind: "error", problem: "serverError" });
    } catch {
      setState({ kind: "error", problem: "offline" });
    }
  }

  const error = state.kind === "error" ? t(`signIn.${state.problem}`) : "";
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <div>
        <label className={styles.label} htmlFor={`${id}-email`}>
          {t("signIn.emailLabel")}
        </label>
        <input
          ref={emailRef}
          id={`${id}-email`}
          className={styles.input}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          aria-invalid={error ? true : undefined}
        />
        <p id={hintId} className={styles.hint}>
          {t("signIn.hint", { orgName })}
        </p>
      </div>
      <p id={errorId} className={styles.alert} role="alert">
        {error}
      </p>
      <button className={styles.submit} type="submit" disabled={state.kind === "sending"} aria-busy={state.kind === "sending" || undefined}>
        {state.kind === "sending" ? t("signIn.sending") : t(again ? "signIn.submitAgain" : "signIn.submit")}
      </button>
      <p className={styles.status} role="status">
        {state.kind === "sent" ? t("signIn.sent", { email: state.email, orgName }) : ""}
      </p>
    </form>
  );
}
