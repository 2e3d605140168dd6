// Restores of the document from the back/forward cache, kept as performance marks (a public part
// of the browser's Performance API) so that the count covers the whole life of the document:
// instrumentation-client.ts starts listening before React hydrates anything. A donor can leave a
// page after it has loaded but before React has mounted it, and come back to it restored; the
// component that keeps the page fresh (fresh-on-return.tsx) mounts after that restore, and still
// learns of it here.

const RESTORE_MARK = "goodfund:back-forward-cache-restore";

/** Leaves a mark at every restore of this document from the back/forward cache, from now on. */
export function markRestores(): void {
  window.addEventListener("pageshow", (e) => {
    if (e.persisted) performance.mark(RESTORE_MARK);
  });
}

/** How many times this document has been restored from the back/forward cache. */
export function restoresSoFar(): number {
  return performance.getEntriesByName(RESTORE_MARK, "mark").length;
}
