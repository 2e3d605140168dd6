"use client";

import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { useSyncExternalStore } from "react";
import { api, type ApiResult } from "@/components/dashboard/api-client";

type Options = { challengeId: string; options: Record<string, unknown> };

/** Whether this browser can use passkeys at all (WebAuthn). */
export const passkeysSupported = () => typeof window !== "undefined" && browserSupportsWebAuthn();

const noSubscription = () => () => {};

/** passkeysSupported() for a component: false while rendering on the server, the browser's answer after hydration. */
export function usePasskeysSupported(): boolean {
  return useSyncExternalStore(noSubscription, passkeysSupported, () => false);
}

/** A person canceled the browser's passkey dialog (or it timed out): not an error worth a red message. */
function isCanceled(err: unknown): boolean {
  return err instanceof Error && (err.name === "NotAllowedError" || err.name === "AbortError");
}

export type CeremonyResult<T> = ApiResult<T> | { ok: false; canceled: true; status: 0; error: string };

const canceled = <T>(): CeremonyResult<T> => ({ ok: false, canceled: true, status: 0, error: "The passkey request was canceled." });

/** Makes a new passkey: the server's options, the browser's dialog, then the answer kept by the server. */
export async function addPasskey<T>(name: string | undefined): Promise<CeremonyResult<T>> {
  const started = await api<Options>("POST", "/api/me/passkeys/options");
  if (!started.ok) return started;
  let response: unknown;
  try {
    response = await startRegistration({ optionsJSON: started.data.options as never });
  } catch (err) {
    if (isCanceled(err)) return canceled();
    return { ok: false, canceled: true, status: 0, error: err instanceof Error ? err.message : "This browser could not make a passkey." };
  }
  return api<T>("POST", "/api/me/passkeys", { challengeId: started.data.challengeId, name: name || undefined, response });
}

/** Signs the challenge of `optionsPath` with a passkey and sends the answer to `answerPath`. */
export async function signWithPasskey<T>(optionsPath: string, answerPath: string): Promise<CeremonyResult<T>> {
  const started = await api<Options>("POST", optionsPath);
  if (!started.ok) return started;
  let response: unknown;
  try {
    response = await startAuthentication({ optionsJSON: started.data.options as never });
  } catch (err) {
    if (isCanceled(err)) return canceled();
    return { ok: false, canceled: true, status: 0, error: err instanceof Error ? err.message : "This browser could not use a passkey." };
  }
  return api<T>("POST", answerPath, { challengeId: started.data.challengeId, response });
}

/** The passkey sign-in: options from the public endpoint, the browser's dialog; answers what next-auth's `passkey` provider takes. */
export async function passkeySignInCredentials(): Promise<{ challengeId: string; response: string } | { error: string } | null> {
  const res = await fetch("/api/passkeys/sign-in-options", { method: "POST", headers: { Accept: "application/json" } }).catch(() => null);
  if (!res?.ok) return { error: "Passkey sign-in is not available right now. Try again in a moment." };
  const { challengeId, options } = (await res.json()) as Options;
  try {
    const response = await startAuthentication({ optionsJSON: options as never });
    return { challengeId, response: JSON.stringify(response) };
  } catch (err) {
    if (isCanceled(err)) return null;
    return { error: err instanceof Error ? err.message : "This browser could not use a passkey." };
  }
}
