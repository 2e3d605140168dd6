import { isFrameable } from "./frameable-routes";

/**
 * Security headers of Goodfund's responses, in one place: proxy.ts applies the page ones to
 * every HTML page, the API wrapper the API ones, next.config.ts the constant ones to everything.
 */

/** Sent on every response, static files included (next.config.ts repeats these values). */
export const BASE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/** HSTS, two years with subdomains: only when the app's own URL is https (a plain-http install would lock itself out). */
export function hstsHeaders(appUrl: string): Record<string, string> {
  return appUrl.startsWith("https://") ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {};
}

// Stripe.js and its frames (card fields, 3-D Secure), per Stripe's CSP guidance.
const STRIPE_SCRIPTS = ["https://js.stripe.com", "https://*.js.stripe.com"];
const STRIPE_FRAMES = [...STRIPE_SCRIPTS, "https://hooks.stripe.com"];
const STRIPE_CONNECT = ["https://api.stripe.com"];
// Cloudflare Turnstile, the donate page's optional bot check: its script and its widget frame.
const TURNSTILE = ["https://challenges.cloudflare.com"];
// The campaign videos the donate page embeds (components/donate/format.ts `videoEmbedUrl`).
const VIDEO_FRAMES = ["https://www.youtube-nocookie.com", "https://player.vimeo.com"];

export type PagePolicyOptions = {
  /** Per-request nonce: Next.js puts it on its own inline and bundle scripts. */
  nonce: string;
  /** The page may be framed by any site (lib/security/frameable-routes.ts). */
  frameable: boolean;
  /** `next dev`: React's dev tooling needs eval. */
  dev: boolean;
  /** The app is served over https: mixed-content references are upgraded. */
  https: boolean;
};

/**
 * The Content-Security-Policy of an HTML page. Scripts: our own origin (Next.js bundles), inline
 * scripts carrying this request's nonce, Stripe.js and Turnstile; nothing else. Styles allow
 * inline because React `style` attributes (brand colours, progress bars) and Stripe's injected
 * styles need it; style injection cannot run code. Images are any https URL (organizations'
 * logos and cover images live anywhere).
 */
export function pageContentSecurityPolicy(o: PagePolicyOptions): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${o.nonce}'`, ...STRIPE_SCRIPTS, ...TURNSTILE, ...(o.dev ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", "https:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...STRIPE_CONNECT],
    "frame-src": [...STRIPE_FRAMES, ...TURNSTILE, ...VIDEO_FRAMES],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
  };
  if (!o.frameable) directives["frame-ancestors"] = ["'none'"];
  const policy = Object.entries(directives).map(([name, values]) => `${name} ${values.join(" ")}`);
  if (o.https) policy.push("upgrade-insecure-requests");
  return policy.join("; ");
}

/** Headers of an HTML page at `pathname`. */
export function pageSecurityHeaders(
  pathname: string,
  o: Omit<PagePolicyOptions, "frameable" | "https"> & { appUrl: string },
): Record<string, string> {
  const frameable = isFrameable(pathname);
  const https = o.appUrl.startsWith("https://");
  return {
    ...BASE_SECURITY_HEADERS,
    "Content-Security-Policy": pageContentSecurityPolicy({ nonce: o.nonce, dev: o.dev, frameable, https }),
    ...(frameable ? {} : { "X-Frame-Options": "DENY" }),
    ...hstsHeaders(o.appUrl),
  };
}

// The donate pages, their payment page, the embeddable form and their thank-you pages: a total or
// a gift's state served from a cache (a proxy's, or the browser's own without asking) would be
// wrong, and could lead a donor to give twice. So they are kept by no shared cache and checked
// with the server each time (`private, no-cache`), but not `no-store`, which would keep Chromium
// from putting them in its back/forward cache: a page restored from there refreshes its figures
// itself when it shows (components/donate/fresh-on-return.tsx), as it does when Back shows it
// from the HTTP cache.
const ALWAYS_REVALIDATED_PAGES = /^\/o\/[^/]+\/donate\/[^/]+(\/pay|(\/embed)?(\/thank-you)?)\/?$/;
// The donor account pages: one donor's gifts, never to be kept by any cache or shown after sign-out.
const NEVER_STORED_PAGES = /^\/o\/[^/]+\/account(\/sign-in)?\/?$/;

/**
 * Caching headers of an HTML page at `pathname`: `private, no-cache` for the donate pages,
 * whose figures must be current but which the back/forward cache may keep; `no-store` for the
 * donor account. Next.js sends `no-store` for every page rendered per request; this states the
 * policy whatever the rendering (a header set here is the one Next.js sends).
 */
export function pageCacheHeaders(pathname: string): Record<string, string> {
  if (ALWAYS_REVALIDATED_PAGES.test(pathname)) return { "Cache-Control": "private, no-cache" };
  return NEVER_STORED_PAGES.test(pathname) ? { "Cache-Control": "no-store" } : {};
}

/**
 * Headers of an API response: JSON is never a document, so it may load nothing and be framed
 * by nobody, and the browser must not sniff it into HTML.
 */
export function apiSecurityHeaders(appUrl: string): Readonly<Record<string, string>> {
  // Every API response asks for these, for the one app URL: made once per URL.
  if (apiHeaders?.appUrl !== appUrl) {
    apiHeaders = {
      appUrl,
      headers: Object.freeze({
        ...BASE_SECURITY_HEADERS,
        "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
        "X-Frame-Options": "DENY",
        ...hstsHeaders(appUrl),
      }),
    };
  }
  return apiHeaders.headers;
}
let apiHeaders: { appUrl: string; headers: Readonly<Record<string, string>> } | undefined;
