import type { Locale } from "./locales";

/**
 * `href` with `?lang=` added when the visitor chose a language that way, so the choice survives a
 * move to another of the site's pages (donate → thank-you → account). Client-safe.
 */
export function withLang(href: string, langParam: Locale | null): string {
  if (!langParam) return href;
  const [path, hash] = href.split("#", 2);
  const sep = path.includes("?") ? "&" : "?";
  const withParam = /[?&]lang=/.test(path) ? path : `${path}${sep}lang=${langParam}`;
  return hash === undefined ? withParam : `${withParam}#${hash}`;
}
