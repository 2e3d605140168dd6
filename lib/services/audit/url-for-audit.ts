/**
 * A URL as the audit log records it: scheme, host, port and path only. The query string and
 * fragment often carry a token (`?key=…`) and user info is a password: the append-only log can
 * never be cleaned afterwards, so neither is ever written to it. Not a URL: recorded as "(invalid URL)".
 */
export function urlForAudit(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
