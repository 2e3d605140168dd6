/** Methods that change nothing; browsers may send them cross-site freely. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request that carries the session cookie may change something: only when it comes
 * from the app's own pages. A browser says so in `Sec-Fetch-Site` (which no page can forge); a
 * browser that does not send it (older ones, or plain-http hosts other than localhost) still sends
 * `Origin` on every cross-site write, which must then be the app's own origin. A request with
 * neither header is refused too: it is not a modern browser on our pages, and a script or
 * `curl` authenticates with `Authorization: Bearer` instead. Safe methods always pass.
 */
export function isAllowedCookieRequest(req: Request, appOrigin: string): boolean {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return true;
  const site = req.headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin";
  return req.headers.get("origin") === appOrigin;
}
