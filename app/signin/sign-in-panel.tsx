"use client";

import Link from "next/link";
import { signIn } from "next-auth/react";
import { useRef, useState, type FormEvent } from "react";
import { passkeySignInCredentials, usePasskeysSupported } from "@/components/security/passkey-browser";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";

type Props = {
  callbackUrl: string;
  error: string | null;
  initiallySent: boolean;
  providers: { id: string; name: string }[];
  demo: boolean;
  sandbox: boolean;
  localEmail: { log: boolean; mailbox: boolean };
  signedInAs: string | null;
  /** Filled into the email field (from an invitation's link). */
  initialEmail?: string;
};

const ERRORS: Record<string, string> = {
  Verification: "That sign-in link has expired or was already used. Ask for a new one below.",
  EmailSignin: "We could not send the sign-in email. Try again in a moment.",
  TooManySignInEmails:
    "Several sign-in links were already sent to this address in the last 15 minutes. Use the latest one, or try again later.",
  TooManySignInRequests: "Too many sign-in links were asked for from your network. Wait a few minutes, then try again.",
  OAuthNoEmail:
    "That account has no verified email address, which Goodfund needs to identify you. Verify one with the provider, or sign in by email.",
  OAuthAccountNotLinked: "This email address is already used by another sign-in method. Sign in the way you did before.",
  CredentialsSignin: "The demo sign-in is not available here.",
  PasskeySignin: "That passkey could not sign you in. It may have been removed from your account; sign in another way.",
  AccessDenied: "Sign-in was refused.",
  SessionRequired: "Sign in to see that page.",
};

export function SignInPanel({
  callbackUrl,
  error,
  initiallySent,
  providers,
  demo,
  sandbox,
  localEmail,
  signedInAs,
  initialEmail = "",
}: Props) {
  const [email, setEmail] = useState(initialEmail);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(initiallySent ? "" : null);
  const [busy, setBusy] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(error ? (ERRORS[error] ?? "Sign-in failed. Try again.") : null);
  const emailInput = useRef<HTMLInputElement>(null);
  const passkeys = usePasskeysSupported();

  async function passkeySignIn() {
    setBusy("passkey");
    setFormError(null);
    const credentials = await passkeySignInCredentials();
    if (!credentials || "error" in credentials) {
      setBusy(null);
      if (credentials) setFormError(credentials.error);
      return;
    }
    const res = await signIn("passkey", { ...credentials, callbackUrl, redirect: false });
    if (!res || res.error || !res.url) {
      setBusy(null);
      setFormError(ERRORS.PasskeySignin);
      return;
    }
    window.location.assign(res.url);
  }

  function validate(input: HTMLInputElement | null): string | null {
    if (!input) return null;
    if (input.validity.valueMissing || input.value.trim() === "") return "Enter your email address";
    if (input.validity.typeMismatch || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(input.value.trim())) return "Invalid email address";
    return null;
  }

  async function sendLink(e: FormEvent) {
    e.preventDefault();
    const msg = validate(emailInput.current);
    setEmailError(msg);
    if (msg) {
      emailInput.current?.focus();
      return;
    }
    setBusy("email");
    setFormError(null);
    const res = await signIn("email", { email: email.trim(), callbackUrl, redirect: false });
    setBusy(null);
    if (!res || res.error) {
      setFormError(ERRORS[res?.error ?? "EmailSignin"] ?? "We could not send the sign-in email. Try again.");
      return;
    }
    setSentTo(email.trim());
  }

  async function demoSignIn() {
    setBusy("demo");
    setFormError(null);
    const res = await signIn("demo", { callbackUrl: callbackUrl === "/dashboard" ? "/dashboard/demo" : callbackUrl, redirect: false });
    if (!res || res.error || !res.url) {
      setBusy(null);
      setFormError(ERRORS.CredentialsSignin);
      return;
    }
    window.location.assign(res.url);
  }

  if (sentTo !== null) {
    return (
      <div className="stack" role="status">
        {localEmail.log ? (
          // This install sends no email: say where the link is instead of "we sent it".
          <Notice tone="success" title="Your sign-in link is ready">
            <p>
              This install does not send email, so the link
              {sentTo ? (
                <>
                  {" "}
                  for <strong>{sentTo}</strong>
                </>
              ) : null}{" "}
              was kept here instead:{" "}
              {localEmail.mailbox ? (
                <>
                  open the <Link href="/sandbox/mailbox">sandbox mailbox</Link>, or find it in the server log (the line “sign-in link kept
                  locally”).
                </>
              ) : (
                <>find it in the server log (the line “sign-in link kept locally”).</>
              )}{" "}
              It works once, for one hour. To email links, set <code>RESEND_API_KEY</code>.
            </p>
          </Notice>
        ) : (
          <Notice tone="success" title="Check your email">
            <p>
              {sentTo ? (
                <>
                  We sent a sign-in link to <strong>{sentTo}</strong>.
                </>
              ) : (
                <>We sent you a sign-in link.</>
              )}{" "}
              It works once, for one hour.
            </p>
          </Notice>
        )}
        <Button variant="secondary" onClick={() => setSentTo(null)}>
          Use a different email
        </Button>
      </div>
    );
  }

  return (
    <div className="stack">
      {formError ? (
        <Notice tone="error" live>
          {formError}
        </Notice>
      ) : null}
      {signedInAs ? (
        <Notice tone="info">
          <p>
            You are signed in as <strong>{signedInAs}</strong>. <Link href="/dashboard">Go to the dashboard</Link>
          </p>
        </Notice>
      ) : null}
      {demo ? (
        <div className="demo-box">
          <p>
            <strong>Sandbox mode.</strong> Try everything with the demo organization (Riverside Food Bank): no real money moves.
          </p>
          <Button size="large" block onClick={demoSignIn} loading={busy === "demo"} disabled={busy !== null && busy !== "demo"}>
            Continue as the demo organization’s owner
          </Button>
        </div>
      ) : null}
      {demo ? <div className="divider">or sign in with your own account</div> : null}
      <form className="form" onSubmit={sendLink} noValidate>
        <TextField
          ref={emailInput}
          id="signin-email"
          label="Email address"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            if (emailError) setEmailError(validate(e.target));
          }}
          onBlur={(e) => setEmailError(e.target.value ? validate(e.target) : null)}
          error={emailError}
          hint={
            sandbox && localEmail.mailbox
              ? "In sandbox mode the link appears in the server log and the sandbox mailbox."
              : "We’ll email you a link that signs you in."
          }
        />
        <Button
          type="submit"
          block
          variant={demo ? "secondary" : "primary"}
          loading={busy === "email"}
          disabled={busy !== null && busy !== "email"}
        >
          Email me a sign-in link
        </Button>
      </form>
      {providers.length > 0 || passkeys ? (
        <>
          <div className="divider">or</div>
          <div className="stack" style={{ gap: 8 }}>
            {passkeys ? (
              <Button
                variant="secondary"
                block
                loading={busy === "passkey"}
                disabled={busy !== null && busy !== "passkey"}
                onClick={passkeySignIn}
              >
                Sign in with a passkey
              </Button>
            ) : null}
            {providers.map((p) => (
              <Button
                key={p.id}
                variant="secondary"
                block
                loading={busy === p.id}
                disabled={busy !== null && busy !== p.id}
                onClick={() => {
                  setBusy(p.id);
                  void signIn(p.id, { callbackUrl });
                }}
              >
                Continue with {p.name}
              </Button>
            ))}
          </div>
        </>
      ) : null}
      <p className="small muted" style={{ margin: 0 }}>
        New here? Signing in creates your account; then you can create an organization. Invited to one? Sign in with the address the
        invitation was sent to: the organization is already on your dashboard.
      </p>
    </div>
  );
}
