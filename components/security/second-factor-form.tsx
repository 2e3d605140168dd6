"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { api } from "@/components/dashboard/api-client";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { signWithPasskey, usePasskeysSupported } from "./passkey-browser";

/**
 * Passes the second factor for the dashboard's own session: a code from the authenticator app
 * or a recovery code (POST /api/me/two-factor/challenge), or a passkey. The API replaces the
 * session cookie with one that carries `twoFactorAt`; `onPassed` runs then.
 */
export function SecondFactorForm({
  totp,
  passkeys,
  onPassed,
  autoFocus = true,
  idPrefix = "second-factor",
}: {
  totp: boolean;
  passkeys: boolean;
  onPassed: () => void;
  autoFocus?: boolean;
  idPrefix?: string;
}) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"code" | "passkey" | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const canPasskey = usePasskeysSupported() && passkeys;
  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setError("Enter the code");
      input.current?.focus();
      return;
    }
    setBusy("code");
    setError(null);
    setFormError(null);
    const res = await api("POST", "/api/me/two-factor/challenge", { code: code.trim() });
    setBusy(null);
    if (res.ok) return onPassed();
    if (res.status === 400) {
      const left = res.codes.code?.[0]?.attemptsLeft;
      setError(
        `That code is not valid or was already used.${typeof left === "number" ? ` ${left} ${left === 1 ? "try" : "tries"} left.` : ""}`,
      );
      input.current?.select();
    } else setFormError(res.status === 429 ? "Too many wrong codes. Wait 15 minutes, then try again." : res.error);
  }

  async function passkey() {
    setBusy("passkey");
    setFormError(null);
    const res = await signWithPasskey("/api/me/two-factor/passkey/options", "/api/me/two-factor/passkey");
    setBusy(null);
    if (res.ok) return onPassed();
    if (!("canceled" in res)) setFormError(res.status === 400 ? "That passkey could not be verified. Try again." : res.error);
  }

  return (
    <div className="stack">
      {formError ? (
        <Notice tone="error" live>
          {formError}
        </Notice>
      ) : null}
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          ref={input}
          id={`${idPrefix}-code`}
          label={totp ? "Code from your authenticator app" : "Recovery code"}
          hint={totp ? "The 6 digits it shows now, or one of your recovery codes." : "One of the recovery codes you saved."}
          autoComplete="one-time-code"
          inputMode={totp ? "numeric" : "text"}
          autoCapitalize="none"
          spellCheck={false}
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            if (error) setError(null);
          }}
          error={error}
          required
        />
        <div className="button-row">
          <Button type="submit" loading={busy === "code"} disabled={busy !== null && busy !== "code"}>
            Verify
          </Button>
          {canPasskey ? (
            <Button variant="secondary" onClick={passkey} loading={busy === "passkey"} disabled={busy !== null && busy !== "passkey"}>
              Use a passkey
            </Button>
          ) : null}
        </div>
      </form>
    </div>
  );
}
