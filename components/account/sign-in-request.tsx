"use client";

import { useId, useRef, useState, type FormEvent } from "react";
import styles from "./account.module.css";

type State = { kind: "idle" } | { kind: "sending" } | { kind: "sent"; email: string } | { kind: "error"; message: string };

/**
 * "Email me a sign-in link": asks the public API for a donor sign-in link. The answer never says
 * whether the address is a donor's (the API answers the same either way), so neither does the
 * confirmation.
 */
export function SignInRequest({
  orgSlug,
  orgName,
  submitLabel = "Email me a sign-in link",
}: {
  orgSlug: string;
  orgName: string;
  submitLabel?: string;
}) {
  const [state, setState] = useState<State>({ kind: "idle" });
  const emailRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = emailRef.current?.value.trim() ?? "";
    if (!email || !emailRef.current?.checkValidity()) {
      setState({ kind: "error", message: "Enter the email address you gave with your gift, like name@example.org." });
      emailRef.current?.focus();
      return;
    }
    setState({ kind: "sending" });
    try {
      const res = await fetch(`/api/public/orgs/${encodeURIComponent(orgSlug)}/donor-sessions`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ email }),
      });
      if (res.status === 202) setState({ kind: "sent", email });
      else if (res.status === 429)
        setState({ kind: "error", message: "Too many sign-in links were asked for in a short time. Wait 15 minutes, then try again." });
      else if (res.status === 400) setState({ kind: "error", message: "That doesn't look like an email address. Check it and try again." });
      else setState({ kind: "error", message: "Something went wrong on our side. Please try again in a moment." });
    } catch {
      setState({ kind: "error", message: "We couldn't reach the server. Check your connection and try again." });
    }
  }

  const error = state.kind === "error" ? state.message : "";
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <div>
        <label className={styles.label} htmlFor={`${id}-email`}>
          Email address
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
          The address you gave when you donated to {orgName}.
        </p>
      </div>
      <p id={errorId} className={styles.alert} role="alert">
        {error}
      </p>
      <button className={styles.submit} type="submit" disabled={state.kind === "sending"} aria-busy={state.kind === "sending" || undefined}>
        {state.kind === "sending" ? "Sending…" : submitLabel}
      </button>
      <p className={styles.status} role="status">
        {state.kind === "sent"
          ? `Check your inbox. If ${state.email} is the address of a donor to ${orgName}, we've sent it a sign-in link. The link works once, within 15 minutes.`
          : ""}
      </p>
    </form>
  );
}
