"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import QRCode from "qrcode";
import { api, firstErrors } from "@/components/dashboard/api-client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { TextField } from "@/components/ui/field";
import { LocalTime } from "@/components/ui/local-time";
import { Notice } from "@/components/ui/notice";
import { useToast } from "@/components/ui/toast";
import { addPasskey, usePasskeysSupported } from "./passkey-browser";
import styles from "./security.module.css";

export type TwoFactorStatus = { enabled: boolean; totp: boolean; passkeys: number; recoveryCodesLeft: number };
export type PasskeyView = { id: string; name: string; synced: boolean; createdAt: string; lastUsedAt: string | null };
export type SessionView = {
  id: string;
  device: string;
  network: string;
  method: string;
  createdAt: string;
  lastSeenAt: string;
  twoFactorAt: string | null;
  current: boolean;
};

const METHOD: Record<string, string> = {
  email: "Email link",
  github: "GitHub",
  google: "Google",
  oidc: "Single sign-on",
  passkey: "Passkey",
  demo: "Demo sign-in",
  api: "API token",
};

/**
 * The Security page's body: the authenticator app (QR code, its secret as text, confirmation by
 * a code, recovery codes shown once), passkeys (add, rename, remove), recovery codes, and the
 * signed-in sessions (sign one out, or all the others). Every change goes through the API
 * (/api/me/...); a change that needs a recent second factor asks for it in the shared dialog.
 */
export function SecuritySettings({
  status,
  passkeys,
  sessions,
  required,
}: {
  status: TwoFactorStatus;
  passkeys: PasskeyView[];
  sessions: SessionView[];
  /** An organization that sent the user here because it requires two-factor. */
  required: { slug: string; name: string; passed: boolean } | null;
}) {
  const router = useRouter();
  const [codes, setCodes] = useState<string[] | null>(null);

  return (
    <div className="stack">
      {required ? (
        required.passed ? (
          <Notice
            tone="success"
            live
            title="You’re all set"
            actions={
              <Link className="button" href={`/dashboard/${required.slug}`}>
                Continue to {required.name}
              </Link>
            }
          >
            <p>Two-factor authentication is on: {required.name} opens again.</p>
          </Notice>
        ) : (
          <Notice tone="warn" title={`${required.name} requires two-factor authentication`}>
            <p>
              {status.enabled
                ? "Confirm your second factor to continue."
                : "Set up an authenticator app or a passkey below. Once it is on, you can open the organization again."}
            </p>
          </Notice>
        )
      ) : null}
      {codes ? (
        <RecoveryCodes
          codes={codes}
          onDone={() => {
            setCodes(null);
            router.refresh();
          }}
        />
      ) : null}
      <AuthenticatorApp status={status} onCodes={setCodes} />
      <Passkeys status={status} passkeys={passkeys} onCodes={setCodes} />
      {status.enabled ? <RecoveryCodesCard left={status.recoveryCodesLeft} onCodes={setCodes} /> : null}
      <Sessions sessions={sessions} />
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [codes]);
  const text = codes.join("\n");
  return (
    <div ref={box} tabIndex={-1} style={{ outline: "none" }}>
      <Notice
        tone="warn"
        live
        title="Save your recovery codes"
        actions={
          <>
            <CopyButton value={text} label="Copy codes" copiedLabel="Codes copied" />
            <Button
              variant="secondary"
              onClick={() => {
                const url = URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" }));
                const a = document.createElement("a");
                a.href = url;
                a.download = "goodfund-recovery-codes.txt";
                a.click();
                URL.revokeObjectURL(url);
              }}
            >
              Download
            </Button>
            <Button onClick={onDone}>I&apos;ve saved them</Button>
          </>
        }
      >
        <p>
          Each code works once in place of your second factor, if you lose your phone or passkey. Keep them somewhere safe: they are shown
          only now.
        </p>
        <ul className={styles.codes} aria-label="Recovery codes">
          {codes.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      </Notice>
    </div>
  );
}

function AuthenticatorApp({ status, onCodes }: { status: TwoFactorStatus; onCodes: (codes: string[]) => void }) {
  const router = useRouter();
  const toast = useToast();
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauthUrl: string; svg: string } | null>(null);
  const [turningOff, setTurningOff] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);

  async function start() {
    setBusy(true);
    setFormError(null);
    const res = await api<{ secret: string; otpauthUrl: string }>("POST", "/api/me/two-factor/totp");
    setBusy(false);
    if (!res.ok) return setFormError(res.error);
    const svg = await QRCode.toString(res.data.otpauthUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
    setEnrolment({ ...res.data, svg });
    setCode("");
    setError(null);
  }

  async function confirm(e: FormEvent) {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ""))) {
      setError("Enter the 6-digit code your app shows");
      codeInput.current?.focus();
      return;
    }
    setBusy(true);
    const res = await api<{ recoveryCodes: string[] }>("POST", "/api/me/two-factor/totp/verify", { code: code.replace(/\s/g, "") });
    setBusy(false);
    if (!res.ok) {
      if (res.status === 400) setError(firstErrors(res.fieldErrors, res.codes).code ?? "That code is not valid");
      else setFormError(res.error);
      return;
    }
    setEnrolment(null);
    onCodes(res.data.recoveryCodes);
    toast.show("Two-factor authentication is on");
  }

  async function turnOff(e: FormEvent) {
    e.preventDefault();
    if (!code.trim()) {
      setError("Enter a code from your app, or a recovery code");
      codeInput.current?.focus();
      return;
    }
    setBusy(true);
    const res = await api<TwoFactorStatus>("DELETE", "/api/me/two-factor", { code: code.trim() });
    setBusy(false);
    if (!res.ok) {
      if (res.status === 400) setError("That code is not valid or was already used");
      else setFormError(res.error);
      return;
    }
    setTurningOff(false);
    setCode("");
    toast.show(res.data.enabled ? "Authenticator app removed; your passkeys remain" : "Two-factor authentication is off");
    router.refresh();
  }

  return (
    <Card
      title="Authenticator app"
      id="totp"
      description="A 6-digit code from an app such as 1Password, Google Authenticator or Authy, asked for after you sign in and before sensitive actions."
    >
      <div className="stack">
        {formError ? (
          <Notice tone="error" live>
            {formError}
          </Notice>
        ) : null}
        {status.totp ? (
          <>
            <p style={{ margin: 0 }}>
              <Badge tone="ok">On</Badge> Your authenticator app is set up.
            </p>
            {turningOff ? (
              <form className="form" onSubmit={turnOff} noValidate>
                <TextField
                  ref={codeInput}
                  id="totp-off-code"
                  label="Code to confirm"
                  hint="A code from your app, or a recovery code."
                  autoComplete="one-time-code"
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  error={error}
                  autoFocus
                  required
                />
                <div className="button-row">
                  <Button type="submit" variant="danger" loading={busy}>
                    Turn off
                  </Button>
                  <Button variant="ghost" onClick={() => setTurningOff(false)} disabled={busy}>
                    Keep it on
                  </Button>
                </div>
              </form>
            ) : (
              <div className="button-row">
                <Button variant="danger-outline" onClick={() => setTurningOff(true)}>
                  Turn off…
                </Button>
              </div>
            )}
          </>
        ) : enrolment ? (
          <div className={styles.enrol}>
            <div
              className={styles.qr}
              role="img"
              aria-label="QR code for your authenticator app"
              dangerouslySetInnerHTML={{ __html: enrolment.svg }}
              style={{ flex: "0 0 auto" }}
            />
            <div className="stack">
              <ol style={{ margin: 0, paddingLeft: 20 }}>
                <li>Scan the QR code with your authenticator app.</li>
                <li>
                  Can’t scan it? Enter this key instead:{" "}
                  <code className={styles.secret} data-testid="totp-secret">
                    {enrolment.secret}
                  </code>{" "}
                  <CopyButton value={enrolment.secret} label="Copy key" copiedLabel="Key copied" />
                </li>
                <li>Enter the 6-digit code the app shows.</li>
              </ol>
              <form className="form" onSubmit={confirm} noValidate>
                <TextField
                  ref={codeInput}
                  id="totp-code"
                  label="6-digit code"
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  value={code}
                  onChange={(e) => {
                    setCode(e.target.value);
                    if (error) setError(null);
                  }}
                  error={error}
                  required
                />
                <div className="button-row">
                  <Button type="submit" loading={busy}>
                    Turn on
                  </Button>
                  <Button variant="ghost" onClick={() => setEnrolment(null)} disabled={busy}>
                    Cancel
                  </Button>
                </div>
              </form>
            </div>
          </div>
        ) : (
          <div className="button-row">
            <Button onClick={start} loading={busy}>
              Set up an authenticator app
            </Button>
          </div>
        )}
      </div>
    </Card>
  );
}

function Passkeys({ status, passkeys, onCodes }: { status: TwoFactorStatus; passkeys: PasskeyView[]; onCodes: (codes: string[]) => void }) {
  const router = useRouter();
  const toast = useToast();
  const supported = usePasskeysSupported();
  const [name, setName] = useState("");
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);

  async function add(e: FormEvent) {
    e.preventDefault();
    setBusy("add");
    setError(null);
    const res = await addPasskey<{ passkey: PasskeyView; recoveryCodes: string[] | null }>(name.trim() || undefined);
    setBusy(null);
    if (!res.ok) {
      if (!("canceled" in res && res.status === 0 && res.error === "The passkey request was canceled.")) setError(res.error);
      return;
    }
    setName("");
    toast.show(`Passkey “${res.data.passkey.name}” added`);
    if (res.data.recoveryCodes) onCodes(res.data.recoveryCodes);
    router.refresh();
  }

  async function rename(e: FormEvent) {
    e.preventDefault();
    if (!editing) return;
    setBusy(editing.id);
    const res = await api("PATCH", `/api/me/passkeys/${encodeURIComponent(editing.id)}`, { name: editing.name });
    setBusy(null);
    if (!res.ok) return setError(res.error);
    setEditing(null);
    router.refresh();
  }

  async function remove(p: PasskeyView) {
    if (!window.confirm(`Remove the passkey “${p.name}”? It will no longer sign you in.`)) return;
    setBusy(p.id);
    setError(null);
    const res = await api("DELETE", `/api/me/passkeys/${encodeURIComponent(p.id)}`);
    setBusy(null);
    if (!res.ok) return setError(res.error);
    toast.show("Passkey removed");
    router.refresh();
  }

  return (
    <Card
      title="Passkeys"
      id="passkeys"
      description="Sign in with your fingerprint, face or device PIN instead of an email link. A passkey is also a second factor."
    >
      <div className="stack">
        {error ? (
          <Notice tone="error" live>
            {error}
          </Notice>
        ) : null}
        {passkeys.length > 0 ? (
          <ul className={styles.list} aria-label="Your passkeys">
            {passkeys.map((p) => (
              <li key={p.id} className={styles.item}>
                {editing?.id === p.id ? (
                  <form className="form" onSubmit={rename} noValidate style={{ flex: "1 1 100%" }}>
                    <TextField
                      id={`rename-${p.id}`}
                      label="Name"
                      value={editing.name}
                      onChange={(e) => setEditing({ id: p.id, name: e.target.value })}
                      maxLength={100}
                      autoFocus
                      required
                    />
                    <div className="button-row">
                      <Button type="submit" size="small" loading={busy === p.id}>
                        Save
                      </Button>
                      <Button variant="ghost" size="small" onClick={() => setEditing(null)}>
                        Cancel
                      </Button>
                    </div>
                  </form>
                ) : (
                  <>
                    <div>
                      <strong>{p.name}</strong>
                      <div className="small muted">
                        {p.synced ? "Synced" : "This device only"} · added <LocalTime iso={p.createdAt} dateOnly />
                        {p.lastUsedAt ? (
                          <>
                            {" "}
                            · last used <LocalTime iso={p.lastUsedAt} />
                          </>
                        ) : null}
                      </div>
                    </div>
                    <div className="button-row">
                      <Button variant="secondary" size="small" onClick={() => setEditing({ id: p.id, name: p.name })}>
                        Rename<span className="sr-only"> {p.name}</span>
                      </Button>
                      <Button variant="danger-outline" size="small" loading={busy === p.id} onClick={() => remove(p)}>
                        Remove<span className="sr-only"> {p.name}</span>
                      </Button>
                    </div>
                  </>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted" style={{ margin: 0 }}>
            No passkeys yet.
          </p>
        )}
        {supported ? (
          <form className="form" onSubmit={add} noValidate>
            <TextField
              id="passkey-name"
              label="Name for the new passkey"
              optional
              hint="So you can tell them apart, e.g. “Work laptop”."
              value={name}
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
            />
            <div className="button-row">
              <Button type="submit" variant={status.enabled ? "secondary" : "primary"} loading={busy === "add"}>
                Add a passkey
              </Button>
            </div>
          </form>
        ) : (
          <p className="small muted" style={{ margin: 0 }}>
            This browser does not support passkeys.
          </p>
        )}
      </div>
    </Card>
  );
}

function RecoveryCodesCard({ left, onCodes }: { left: number; onCodes: (codes: string[]) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function regenerate() {
    setBusy(true);
    setError(null);
    const res = await api<{ recoveryCodes: string[] }>("POST", "/api/me/two-factor/recovery-codes");
    setBusy(false);
    if (!res.ok) return setError(res.error);
    onCodes(res.data.recoveryCodes);
  }
  return (
    <Card title="Recovery codes" id="recovery-codes" description="Each one works once, when you can’t use your app or passkey.">
      <div className="stack">
        {error ? (
          <Notice tone="error" live>
            {error}
          </Notice>
        ) : null}
        <p style={{ margin: 0 }}>
          {left === 0 ? <Badge tone="danger">None left</Badge> : null} {left} unused {left === 1 ? "code" : "codes"} left.
        </p>
        <div className="button-row">
          <Button variant="secondary" onClick={regenerate} loading={busy}>
            Make new codes
          </Button>
        </div>
      </div>
    </Card>
  );
}

function Sessions({ sessions }: { sessions: SessionView[] }) {
  const router = useRouter();
  const toast = useToast();
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const others = sessions.filter((s) => !s.current).length;

  async function signOut(s: SessionView) {
    setBusy(s.id);
    setError(null);
    const res = await api("DELETE", `/api/me/sessions/${encodeURIComponent(s.id)}`);
    setBusy(null);
    if (!res.ok) return setError(res.error);
    if (s.current) {
      router.replace("/signin");
      router.refresh();
      return;
    }
    toast.show(`Signed out ${s.device}`);
    router.refresh();
  }

  async function signOutOthers() {
    setBusy("others");
    setError(null);
    const res = await api<{ revoked: number }>("DELETE", "/api/me/sessions");
    setBusy(null);
    if (!res.ok) return setError(res.error);
    toast.show(res.data.revoked === 1 ? "Signed out 1 other session" : `Signed out ${res.data.revoked} other sessions`);
    router.refresh();
  }

  return (
    <Card title="Signed-in sessions" id="sessions" description="Where your account is signed in. Sign out any you don’t recognise.">
      <div className="stack">
        {error ? (
          <Notice tone="error" live>
            {error}
          </Notice>
        ) : null}
        {sessions.length === 0 ? (
          <p className="muted" style={{ margin: 0 }}>
            No sessions to show.
          </p>
        ) : (
          <ul className={styles.list} aria-label="Signed-in sessions">
            {sessions.map((s) => (
              <li key={s.id} className={styles.item}>
                <div>
                  <strong>{s.device}</strong> {s.current ? <Badge tone="ok">This session</Badge> : null}
                  <div className="small muted">
                    {s.network} · {METHOD[s.method] ?? s.method} · last active <LocalTime iso={s.lastSeenAt} />
                  </div>
                </div>
                <Button variant="secondary" size="small" loading={busy === s.id} onClick={() => signOut(s)}>
                  Sign out<span className="sr-only"> {s.device}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
        {others > 0 ? (
          <div className="button-row">
            <Button variant="danger-outline" onClick={signOutOthers} loading={busy === "others"}>
              Sign out all other sessions
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
