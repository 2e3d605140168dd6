import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { hostName, orgSlugForHost, shortUrlTarget } from "@/lib/hosted-urls/custom-domains";
import {
  CUSTOM_DOMAIN_HEADER,
  EMBED_HEADER,
  NOT_FOUND_PAGE_PATH,
  appHostRoute,
  customDomainRoute,
  isAssetPath,
  isEmbedPath,
  type HostRoute,
} from "@/lib/hosted-urls/routes";
import { LANG_PARAM_HEADER, LOCALE_HEADER, chooseLocale, isLocale, negotiateLocale } from "@/lib/i18n/locales";
import { orgDefaultLocale } from "@/lib/i18n/org-default";
import { errorFields, log } from "@/lib/log";
import { pageCacheHeaders, pageSecurityHeaders } from "@/lib/security/headers";

/**
 * Runs before every page request (not the API, whose every route applies the same host rules and
 * its own headers in withRoute's steps, lib/api/route.ts; not Next.js's static files), in two
 * steps.
 *
 * 1. Hosts (lib/hosted-urls/routes.ts): on an organization's custom domain, its public paths
 *    are rewritten onto `/o/{orgSlug}/...` and everything else answers 404; on the app's own host,
 *    the short URL `/donate/{slug}` redirects (308) to the one organization with that campaign.
 * 2. Pages: a fresh nonce a request, put in the Content-Security-Policy of both the request, where
 *    Next.js finds it and stamps it on its own scripts, and the response, with the frame and
 *    transport headers (lib/security/headers.ts), chosen by the path actually served. Pages must
 *    render per request for the nonce to reach them (app/layout.tsx renders dynamically).
 */
export async function proxy(request: NextRequest) {
  const env = getEnv();
  const { pathname } = request.nextUrl;
  let route: HostRoute;
  let customDomain = false;
  try {
    const orgSlug = await orgSlugForHost(hostName(request.headers.get("host")), new URL(env.appUrl).hostname);
    customDomain = orgSlug !== null;
    route = orgSlug ? customDomainRoute(pathname, orgSlug) : appHostRoute(pathname);
    if (route.action === "short-url") {
      const target = await shortUrlTarget(route.slug, route.rest);
      if (target) return NextResponse.redirect(`${target}${request.nextUrl.search}`, 308);
      route = { action: "not-found", api: false };
    }
  } catch (err) {
    // The database could not say which organization this host or short URL belongs to.
    log.error("could not resolve the request's host or short URL", errorFields(err));
    return new NextResponse("Service temporarily unavailable. Please try again shortly.", {
      status: 503,
      headers: { "Retry-After": "5", "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }

  const served = route.action === "rewrite" ? route.pathname : route.action === "not-found" ? NOT_FOUND_PAGE_PATH : pathname;
  const requestHeaders = new Headers(request.headers);
  requestHeaders.delete(CUSTOM_DOMAIN_HEADER);
  requestHeaders.delete(EMBED_HEADER);
  requestHeaders.delete(LOCALE_HEADER);
  requestHeaders.delete(LANG_PARAM_HEADER);
  let responseHeaders: Record<string, string> = {};
  if (!isAssetPath(served)) {
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
    const security = pageSecurityHeaders(served, { nonce, dev: process.env.NODE_ENV === "development", appUrl: env.appUrl });
    requestHeaders.set("x-nonce", nonce);
    requestHeaders.set("content-security-policy", security["Content-Security-Policy"]);
    if (customDomain) requestHeaders.set(CUSTOM_DOMAIN_HEADER, "1");
    if (isEmbedPath(served)) requestHeaders.set(EMBED_HEADER, "1");
    const orgPage = /^\/o\/([^/]+)/.exec(served);
    if (orgPage) {
      const lang = request.nextUrl.searchParams.get("lang");
      const acceptLanguage = request.headers.get("accept-language");
      const locale = await pageLocale(orgPage[1], lang, acceptLanguage);
      requestHeaders.set(LOCALE_HEADER, locale);
      if (isLocale(lang)) requestHeaders.set(LANG_PARAM_HEADER, lang);
    }
    responseHeaders = { ...security, ...pageCacheHeaders(served) };
  }

  let response: NextResponse;
  if (served === pathname) response = NextResponse.next({ request: { headers: requestHeaders } });
  else {
    const url = request.nextUrl.clone();
    url.pathname = served;
    response = NextResponse.rewrite(url, { request: { headers: requestHeaders } });
  }
  for (const [name, value] of Object.entries(responseHeaders)) response.headers.set(name, value);
  return response;
}

/**
 * The language of an organization's public page: `?lang=`, else `Accept-Language`, else the
 * organization's `defaultLocale` (read only when the first two name nothing we have).
 */
async function pageLocale(orgSlug: string, lang: string | null, acceptLanguage: string | null) {
  const asked = isLocale(lang) ? lang : negotiateLocale(acceptLanguage);
  if (asked) return asked;
  try {
    return chooseLocale({ orgDefault: await orgDefaultLocale(decodeURIComponent(orgSlug)) });
  } catch (err) {
    log.error("could not read the organization's default language", errorFields(err));
    return chooseLocale({});
  }
}

export const config = {
  matcher: [
    // Not the API (withRoute applies the host rules to every route, on the fast path too), nor
    // Next.js's static files and images, or the icons.
    "/((?!api(?:/|$)|_next/static|_next/image|favicon.ico|icon.png|apple-icon.png).*)",
  ],
};
