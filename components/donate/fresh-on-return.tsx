"use client";

import { useRouter } from "next/navigation";
import { useEffect, useSyncExternalStore } from "react";
import { restoresSoFar } from "./restore-marks";

// Server renders on screen now, and those this tab has shown and left, by their ID.
const showing = new Set<string>();
const left = new Set<string>();

/** Whether this document was loaded by Back or Forward (from the server, or from the HTTP cache without asking it). */
function loadedByHistory(): boolean {
  const [nav] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
  return nav?.type === "back_forward";
}

/**
 * Runs `f` once the document's load has finished. Until then Chromium answers the requests of a
 * document loaded by Back or Forward from its HTTP cache without asking the server, the router's
 * refresh included (seen in a trace: the refresh got the earlier response, with its old `Date`).
 * Returns what cancels it, which answers whether `f` had not run yet.
 */
function afterLoad(f: () => void): () => boolean {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ran = false;
  // After the load event's own listeners: the load counts as finished once they have run.
  const later = () => void (timer = setTimeout(() => ((ran = true), f())));
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
  return () => {
    window.removeEventListener("load", later);
    clearTimeout(timer);
    return !ran;
  };
}

// Later restores, told to the mounted components after every other `pageshow` listener: the App
// Router answers a restore by resetting its own state, which would discard a refresh dispatched
// before it.
const restoreListeners = new Set<(restore: number) => void>();
if (typeof window !== "undefined") {
  window.addEventListener("pageshow", (e) => {
    if (!e.persisted) return;
    setTimeout(() => {
      const restore = restoresSoFar();
      restoreListeners.forEach((listener) => listener(restore));
    });
  });
}

// The document's own server render is shown by the first mount: it refreshes once if the
// document came from history (Back or Forward) or was restored before that mount.
let firstMountDone = false;

/**
 * Keeps a page's server data current when the browser shows it again without a fresh render:
 * - the back/forward cache (the whole document restored, `pageshow` with `persisted`; the donate
 *   pages allow it, lib/security/headers.ts), a restore from before React mounted the page
 *   included (restore-marks.ts);
 * - the HTTP cache, which Chromium uses for Back and Forward without asking the server (the
 *   pages are `private, no-cache`): a document loaded by a history navigation refreshes once,
 *   after its load;
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
    const firstMount = !firstMountDone;
    firstMountDone = true;
    let cancelLater = () => false;
    if (left.has(renderId) || (firstMount && restoresSoFar() > 0)) router.refresh();
    else if (firstMount && loadedByHistory()) cancelLater = afterLoad(() => router.refresh());
    showing.add(renderId);
    return () => {
      // A refresh still waiting for the load is left to the next mount (React's development
      // double mount comes straight back; a page left before its load refreshes where it goes).
      if (cancelLater()) firstMountDone = false;
      showing.delete(renderId);
      // Left for real unless mounted again at once (React's development double mount does so
      // before any microtask runs).
      queueMicrotask(() => {
        if (!showing.has(renderId)) left.add(renderId);
      });
    };
  }, [renderId, router]);

  useEffect(() => {
    // Restores up to now are the mount's to handle (above); later ones refresh here.
    let handled = restoresSoFar();
    const onRestore = (restore: number) => {
      if (restore <= handled) return;
      handled = restore;
      router.refresh();
    };
    restoreListeners.add(onRestore);
    return () => void restoreListeners.delete(onRestore);
  }, [router]);

  return null;
}
