import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { pageCacheHeaders, pageSecurityHeaders } from "@/lib/security/headers";

/**
 * Runs before every page (not the API, whose wrapper sets its own headers, and not static
 * assets): a fresh nonce a request, put in the Content-Security-Policy of both the request, where
 * Next.js finds it and stamps it on its own scripts, and the response, with the frame and
 * transport headers (lib/security/headers.ts). Pages must render per request for the nonce to
 * reach them (app/layout.tsx renders dynamically).
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const headers = pageSecurityHeaders(request.nextUrl.pathname, {
    nonce,
    dev: process.env.NODE_ENV === "development",
    appUrl: getEnv().appUrl,
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", headers["Content-Security-Policy"]);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  const all = { ...headers, ...pageCacheHeaders(request.nextUrl.pathname) };
  for (const [name, value] of Object.entries(all)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      // Not the API, Next.js's static files and images, or the icons; prefetches carry no HTML.
      source: "/((?!api/|_next/static|_next/image|favicon.ico|icon.png|apple-icon.png).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
