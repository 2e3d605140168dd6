import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { GetServerSidePropsContext } from "next";
import { LOCALE_HEADER, type Locale } from "@/lib/i18n/locales";
import { serverClientIpHeaders } from "./api";

/** The donate page's answer to one request: its status, its HTML, or where it redirects. */
export type DonatePageAnswer = { status: number; html: string; location: string | null; headers: Record<string, string> };

/**
 * Renders the donate page (pages/o/[orgSlug]/donate/[slug].tsx) the way Next.js's Pages Router
 * does for one request, without a build: its getServerSideProps with a request as proxy.ts hands
 * it on (the language header, a client address with its proof), then the page's component to
 * static HTML. `form` posts the donate form (its fields by name, as the browser sends them).
 */
export async function donatePage(
  orgSlug: string,
  slug: string,
  options: { locale?: Locale; form?: Record<string, string>; query?: string; headers?: Record<string, string>; clientIp?: string } = {},
): Promise<DonatePageAnswer> {
  const { getDonatePageProps } = await import("@/app/o/[orgSlug]/donate/[slug]/page-props");
  const { DonatePage } = await import("@/app/o/[orgSlug]/donate/[slug]/donate-page");
  const { renderToStaticMarkup } = await import("react-dom/server");
  const { createElement } = await import("react");

  const body = options.form ? new URLSearchParams(options.form).toString() : "";
  const clientIp = options.clientIp ?? "203.0.113.7";
  const req = Object.assign(Readable.from(body ? [Buffer.from(body)] : []), {
    method: options.form ? "POST" : "GET",
    url: `/o/${orgSlug}/donate/${slug}${options.query ?? ""}`,
    headers: {
      host: "localhost",
      [LOCALE_HEADER]: options.locale ?? "en",
      ...serverClientIpHeaders(clientIp),
      ...(options.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      ...options.headers,
    },
    cookies: {},
  }) as unknown as IncomingMessage & { cookies: Partial<Record<string, string>> };
  const headers: Record<string, string> = {};
  const res = {
    statusCode: 200,
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
      return res;
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  } as unknown as ServerResponse;

  const ctx = { req, res, params: { orgSlug, slug }, query: {}, resolvedUrl: req.url } as unknown as GetServerSidePropsContext;
  const result = await getDonatePageProps(ctx);
  if ("redirect" in result) {
    const redirect = result.redirect as { destination: string; statusCode?: number };
    return { status: redirect.statusCode ?? 307, html: "", location: redirect.destination, headers };
  }
  if (!("props" in result)) throw new Error("the donate page answered neither props nor a redirect");
  const html = renderToStaticMarkup(createElement(DonatePage, await result.props));
  return { status: res.statusCode, html, location: null, headers };
}
