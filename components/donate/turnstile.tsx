"use client";

import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";

/**
 * Cloudflare Turnstile, rendered explicitly into its own box. Its script comes from
 * challenges.cloudflare.com (script-src) and the challenge runs in a frame from the same origin
 * (frame-src). The script tag carries the page's CSP nonce when there is one.
 */
export const TURNSTILE_SCRIPT = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

type TurnstileApi = {
  render: (el: HTMLElement, options: Record<string, unknown>) => string;
  reset: (widgetId?: string) => void;
  remove: (widgetId: string) => void;
};
declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

let loading: Promise<TurnstileApi> | null = null;

function loadTurnstile(nonce: string | undefined): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    if (nonce) script.nonce = nonce;
    script.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error("Turnstile did not load")));
    script.onerror = () => {
      loading = null;
      reject(new Error("Turnstile could not be loaded"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export type TurnstileHandle = { reset: () => void };

export type TurnstileProps = {
  siteKey: string;
  /** The Content-Security-Policy nonce of this response, if the page has one. */
  nonce?: string;
  /** Called with a fresh token, and with null when it expires or the challenge fails. */
  onToken: (token: string | null) => void;
  /** The load failed (blocked, offline): the form says so instead of waiting forever. */
  onUnavailable?: () => void;
  className?: string;
};

export const Turnstile = forwardRef<TurnstileHandle, TurnstileProps>(function Turnstile(
  { siteKey, nonce, onToken, onUnavailable, className },
  ref,
) {
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<string | null>(null);
  // The latest callbacks, without re-rendering the widget when the parent re-renders.
  const callbacks = useRef({ onToken, onUnavailable });
  callbacks.current = { onToken, onUnavailable };

  useImperativeHandle(ref, () => ({
    reset: () => {
      callbacks.current.onToken(null);
      if (widget.current && window.turnstile) window.turnstile.reset(widget.current);
    },
  }));

  useEffect(() => {
    let canceled = false;
    loadTurnstile(nonce).then(
      (api) => {
        if (canceled || !box.current) return;
        widget.current = api.render(box.current, {
          sitekey: siteKey,
          action: "donate",
          callback: (token: string) => callbacks.current.onToken(token),
          "expired-callback": () => callbacks.current.onToken(null),
          "error-callback": () => callbacks.current.onToken(null),
        });
      },
      () => {
        if (!canceled) callbacks.current.onUnavailable?.();
      },
    );
    return () => {
      canceled = true;
      if (widget.current && window.turnstile) window.turnstile.remove(widget.current);
      widget.current = null;
    };
  }, [siteKey, nonce]);

  return <div ref={box} className={className} />;
});
