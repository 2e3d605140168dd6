/**
 * Rate limits count in fixed windows aligned to the clock (a minute unless a policy says
 * otherwise). A test that compares counts across several requests starts well inside one window,
 * so that the window can't end between them: when less than `needMs` of the current window is
 * left, this waits for the next one to begin.
 */
export async function startInsideWindow(needMs: number, windowMs = 60_000): Promise<void> {
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((r) => setTimeout(r, left + 50));
}
