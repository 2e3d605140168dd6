"use client";

import { signOut } from "next-auth/react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";

/** Signs out (clears the session cookie) and returns to the sign-in page. */
export function SignOutButton({ size = "small" as const }: { size?: "small" | "medium" }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="secondary"
      size={size}
      loading={busy}
      onClick={() => {
        setBusy(true);
        void signOut({ callbackUrl: "/signin" });
      }}
    >
      Sign out
    </Button>
  );
}

const KEEPALIVE_MS = 5 * 60 * 1000;

/**
 * Keeps the session of an open dashboard tab alive: next-auth re-issues the JWT cookie (with a
 * fresh SESSION_MAX_AGE_SECONDS) on each /api/auth/session call. Only while the tab is visible,
 * so an abandoned tab still expires.
 */
export function SessionKeepAlive() {
  useEffect(() => {
    let last = Date.now();
    const ping = () => {
      if (document.visibilityState !== "visible") return;
      if (Date.now() - last < KEEPALIVE_MS) return;
      last = Date.now();
      void fetch("/api/auth/session", { credentials: "same-origin" }).catch(() => {});
    };
    const timer = setInterval(ping, 60 * 1000);
    document.addEventListener("visibilitychange", ping);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", ping);
    };
  }, []);
  return null;
}
