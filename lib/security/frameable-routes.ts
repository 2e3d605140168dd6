/**
 * The pages other sites may show in a frame. Every other page answers with
 * `frame-ancestors 'none'` and `X-Frame-Options: DENY`, so nobody can overlay it for clickjacking.
 * A pattern matches a whole path; `:name` stands for one path segment.
 *
 * The embeddable donate form and the thank-you page it leads to inside the frame, at their full
 * paths and at a custom domain's short ones (proxy.ts checks the path it serves, after rewriting
 * a custom domain's, so the short ones are here for any caller that checks the address as sent).
 */
export const FRAMEABLE_ROUTES: readonly string[] = [
  "/o/:orgSlug/donate/:slug/embed",
  "/o/:orgSlug/donate/:slug/embed/thank-you",
  "/donate/:slug/embed",
  "/donate/:slug/embed/thank-you",
];

const compiled = new Map<string, RegExp>();

function patternRegExp(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    const body = pattern
      .split("/")
      .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    re = new RegExp(`^${body}/?$`);
    compiled.set(pattern, re);
  }
  return re;
}

/** Whether the page at `pathname` may be framed by any site (`routes` defaults to the list above). */
export function isFrameable(pathname: string, routes: readonly string[] = FRAMEABLE_ROUTES): boolean {
  return routes.some((pattern) => patternRegExp(pattern).test(pathname));
}
