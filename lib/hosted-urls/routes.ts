import { SLUG_PATTERN } from "@/lib/slug";

/**
 * What a request's host serves, by path (contract: hosted URLs): proxy.ts applies it to pages,
 * withRoute's host step (lib/api/route.ts) to the API. On an
 * organization's custom domain only its public pages, their assets and the public API exist:
 * `/` is its landing page, `/donate/{slug}` (with `/pay`, `/thank-you`, `/embed`) its donate pages and
 * `/account/**` its donors' account pages, all served from `/o/{orgSlug}/...`; the dashboard,
 * sign-in, the docs and the authenticated API answer 404 there. On the app's own host (and any
 * host that is nobody's custom domain) everything is served as is, and the short URL
 * `/donate/{slug}` is resolved by proxy.ts.
 */
export type HostRoute =
  | { action: "next" }
  | { action: "rewrite"; pathname: string }
  | { action: "not-found"; api: boolean }
  | { action: "short-url"; slug: string; rest: string };

/** Where proxy.ts sends an unserved page: no route matches it, so Next.js answers its 404 page. */
export const NOT_FOUND_PAGE_PATH = "/__goodfund/not-found";

/**
 * Request header proxy.ts sets on a page request that arrived on a custom domain (and removes
 * from any other), so pages link with the domain's short paths (`/donate/{slug}`).
 */
export const CUSTOM_DOMAIN_HEADER = "x-goodfund-custom-domain";

/** Request header proxy.ts sets on the embeddable form's pages (and removes from any other): the donate layout drops its page chrome. */
export const EMBED_HEADER = "x-goodfund-embed";

// Files every host serves: Next.js's bundles and images, the icons, the demo's cover images, the embed script.
const ASSETS = /^\/(_next\/|covers\/|embed\.js$|favicon\.ico$|icon\.png$|apple-icon\.png$)/;
// The donate page's steps, as they follow `/donate/{slug}`.
const DONATE_SUFFIX = /^(\/pay|\/thank-you|\/embed|\/embed\/thank-you)?\/?$/;

const isSlug = (s: string) => s.length <= 100 && SLUG_PATTERN.test(s);

/** A file every host serves as it is (no page headers: it is not a page). */
export function isAssetPath(pathname: string): boolean {
  return ASSETS.test(pathname);
}

/** The embeddable form's pages, on either host (`/o/{org}/donate/{slug}/embed[/thank-you]`, `/donate/{slug}/embed[/thank-you]`). */
export function isEmbedPath(pathname: string): boolean {
  return /^(\/o\/[^/]+)?\/donate\/[^/]+\/embed(\/thank-you)?\/?$/.test(pathname);
}

/**
 * The public API a custom domain serves: what the donate and account pages call. Organization
 * paths must name the domain's own organization.
 */
function customDomainApi(pathname: string, orgSlug: string): boolean {
  if (pathname === "/api/donations") return true;
  // Sandbox mode's card forms: the donate form's payment, the account page's card change.
  if (pathname.startsWith("/api/sandbox/payments/") || pathname.startsWith("/api/sandbox/setup-intents/")) return true;
  const scoped = /^\/api\/(public|donor)\/orgs\/([^/]+)(\/|$)/.exec(pathname);
  if (scoped) return scoped[2] === orgSlug;
  return pathname.startsWith("/api/public/");
}

/** The route of a request on the custom domain of the organization `orgSlug`. */
export function customDomainRoute(pathname: string, orgSlug: string): HostRoute {
  if (ASSETS.test(pathname)) return { action: "next" };
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    return customDomainApi(pathname, orgSlug) ? { action: "next" } : { action: "not-found", api: true };
  }
  const home = `/o/${orgSlug}`;
  if (pathname === "/") return { action: "rewrite", pathname: home };
  if (pathname.startsWith("/donate/")) return { action: "rewrite", pathname: `${home}${pathname}` };
  if (pathname === "/account" || pathname.startsWith("/account/")) return { action: "rewrite", pathname: `${home}${pathname}` };
  // The same pages at their full paths (the donate form's own links and redirects use these).
  const own = pathname.slice(home.length);
  if (pathname.startsWith(home) && (/^\/?$/.test(own) || own.startsWith("/donate/") || own === "/account" || own.startsWith("/account/"))) {
    return { action: "next" };
  }
  return { action: "not-found", api: false };
}

/** The route of a request on the app's own host. */
export function appHostRoute(pathname: string): HostRoute {
  const short = /^\/donate\/([^/]+)(\/.*)?$/.exec(pathname);
  if (short) {
    const [, slug, rest = ""] = short;
    if (!isSlug(slug) || !DONATE_SUFFIX.test(rest)) return { action: "not-found", api: false };
    return { action: "short-url", slug, rest: rest.replace(/\/$/, "") };
  }
  return { action: "next" };
}
