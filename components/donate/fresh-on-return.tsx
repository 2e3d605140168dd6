"use client";

import { useRouter } from "next/navigation";
import { useEffect, useSyncExternalStore } from "react";

// Server renders on screen now, and those this tab has shown and left, by their ID.
const showing = new Set<string>();
const left = new Set<string>();

/** Whether this document was loaded by Back or Forward (from the server, or from the HTTP cache without asking it). */
function loadedByHistory(): boolean {
  const [nav] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  return nav?.type === "back_forward";
}

// One refresh for the document's own history load, not one per mount.
let historyLoadRefreshed = false;

/**
 * Keeps a page's server data current when the browser shows it again without a fresh render:
 * - the back/forward cache (the whole document restored, `pageshow` with `persisted`; the donate
 *   pages allow it, lib/security/headers.ts);
 * - the HTTP cache, which Chromium uses for Back and Forward without asking the server (the
 *   pages are `private, no-cache`): a document loaded by a history navigation refreshes once;
 * - the App Router's own cache, which Back and Forward reuse without a request. The page's
 *   components then mount again with the same server render (`renderId`, new on every server
 *   render), so a render seen before is a restored one.
 * Refreshing fetches the page's server data again, keeping what the visitor typed.
 */
export function FreshOnReturn({ renderId }: { renderId: string }) {
  // Nothing to keep fresh where the page is only rendered (the server's render, a static render
  // of the page outside the App Router): the part that needs the router mounts in the browser.
  const inBrowser = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return inBrowser ? <KeepFresh renderId={renderId} /> : null;
}

const noSubscription = () => () => {};

function KeepFresh({ renderId }: { renderId: string }) {
  const router = useRouter();

  useEffect(() => {
    if (left.has(renderId)) router.refresh();
    else if (!historyLoadRefreshed && loadedByHistory()) {
      historyLoadRefreshed = true;
      router.refresh();
    }
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
