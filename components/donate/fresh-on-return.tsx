"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

// Server renders on screen now, and those this tab has shown and left, by their ID.
const showing = new Set<string>();
const left = new Set<string>();

/**
 * Keeps a page's server data current when the browser shows it again from memory rather than
 * asking the server: the back-forward cache (the whole document restored, `pageshow` with
 * `persisted`), and the App Router's own cache, which Back and Forward reuse without a request.
 * In that second case the page's components mount again with the same server render
 * (`renderId`, new on every server render), so a render seen before is a restored one: the
 * page refreshes its server data, keeping what the visitor typed.
 */
export function FreshOnReturn({ renderId }: { renderId: string }) {
  const router = useRouter();

  useEffect(() => {
    if (left.has(renderId)) router.refresh();
    showing.add(renderId);
    return () => {
      showing.delete(renderId);
      // Left for real unless mounted again at once (React's development double mount does so
      // before any microtask runs).
      queueMicrotask(() => {
        if (!showing.has(renderId)) left.add(renderId);
      });
    };
  }, [renderId, router]);

  useEffect(() => {
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted) router.refresh();
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, [router]);

  return null;
}
