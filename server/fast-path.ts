// Fast routes: the routes that declare `fastPath: true` in their withRoute are served here,
// straight from node:http, instead of through Next.js's router and app-route runtime. It is the
// same handler (withRoute: the same steps, checks, errors, headers and log line) given a
// NextRequest made from the request and its body, which has arrived by then (the overload guard
// waits for it); what only Next.js's request scope gives (`headers()`,
// `cookies()`, `after()`) is unavailable here, and the lint keeps route code off it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { NextRequest } from "next/server";
import type { RouteHandler } from "@/lib/api/route";
import { SpanKind } from "@opentelemetry/api";
import { getEnv } from "@/lib/env";
import { inSpan } from "@/lib/telemetry/tracing";
import { errorFields, log } from "@/lib/log";
import { apiSecurityHeaders } from "@/lib/security/headers";
import { takeBody } from "./request-body";

export type FastRoutes = Readonly<Record<string, Readonly<Partial<Record<string, RouteHandler>>>>>;

/** Every API route by the path it is served at, the most specific first (server/routes.generated.ts, API_ROUTE_PATHS). */
export type ApiRoutePaths = readonly { route: string; pattern: RegExp }[];

/** Serves a request itself (a promise of its end), or answers undefined to leave it to Next.js. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined;

const PARAMETER = /^\[([^\].]+)\]$/;

/**
 * The path parameters of `pathname` by the route's path (`/api/x/[id]`), decoded as Next.js
 * decodes them; undefined when a segment is not valid percent-encoding (Next.js answers those).
 */
function paramsOf(route: string, pathname: string): Record<string, string> | undefined {
  const names = route.split("/");
  const values = pathname.split("/");
  const params: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const name = PARAMETER.exec(names[i])?.[1];
    if (!name) continue;
    try {
      params[name] = decodeURIComponent(values[i]);
    } catch {
      return undefined;
    }
  }
  return params;
}

/**
 * The fast path over `routes` (path, then method). A path without parameters is matched exactly;
 * one with parameters (`/api/public/campaigns/[id]`) takes a request only when it is the route
 * Next.js would choose for it, the first of `apiRoutes` (every API route, the most specific
 * first) that matches, so a fixed path beside it keeps its own route. Any other path or method (a
 * trailing slash Next.js redirects, a 405 the route module answers) goes to Next.js.
 */
export function fastPath(routes: FastRoutes, apiRoutes: ApiRoutePaths): FastPath {
  const exact = new Map<string, Map<string, RouteHandler>>();
  // Each route with parameters, with the patterns of the API routes Next.js tries before it that
  // could take the same paths (as many segments, or a catch-all): it takes a path none of them does.
  const withParams: { route: string; pattern: RegExp; before: RegExp[]; handlers: Map<string, RouteHandler> }[] = [];
  for (const [path, handlers] of Object.entries(routes)) {
    const byMethod = new Map(Object.entries(handlers).filter((e): e is [string, RouteHandler] => e[1] !== undefined));
    if (path.split("/").some((segment) => segment.startsWith("["))) {
      if (!path.split("/").every((segment) => !segment.startsWith("[") || PARAMETER.test(segment))) {
        throw new Error(`${path}: a fast route's parameters are single segments (no catch-all)`);
      }
      const at = apiRoutes.findIndex((r) => r.route === path);
      if (at < 0) throw new Error(`${path}: a fast route with parameters must be among the API routes`);
      const segments = path.split("/").length;
      const before = apiRoutes
        .slice(0, at)
        .filter((r) => r.route.includes("[...") || r.route.split("/").length === segments)
        .map((r) => r.pattern);
      withParams.push({ route: path, pattern: apiRoutes[at].pattern, before, handlers: byMethod });
    } else exact.set(path, byMethod);
  }
  return (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q < 0 ? url : url.slice(0, q);
    const method = req.method ?? "";
    let route = pathname;
    let params: Record<string, string> | undefined = {};
    let handler = exact.get(pathname)?.get(method);
    if (!handler && withParams.length > 0 && pathname.startsWith("/api/") && !pathname.endsWith("/")) {
      const chosen = withParams.find((r) => r.pattern.test(pathname) && !r.before.some((b) => b.test(pathname)));
      handler = chosen?.handlers.get(method);
      if (chosen && handler) {
        route = chosen.route;
        params = paramsOf(route, pathname);
      }
    }
    if (!handler || !params) return undefined;
    const given = params;
    // A request span like the ones Next.js makes for the requests it routes (when tracing is on).
    return inSpan(
      `${method} ${route}`,
      { "http.route": route, "http.request.method": method },
      () => serve(handler, req, res, given),
      SpanKind.SERVER,
    );
  };
}

/** Serves a request whose body has arrived (the overload guard waited for it: ./request-body.ts). */
async function serve(handler: RouteHandler, req: IncomingMessage, res: ServerResponse, params: Record<string, string>): Promise<void> {
  const appUrl = getEnv().appUrl;
  try {
    const body = takeBody(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const request = new NextRequest(new URL(req.url!, appUrl), {
      method: req.method,
      headers,
      body: body as Uint8Array<ArrayBuffer> | null,
    });
    const response = await handler(request, { params: Promise.resolve(params) });
    const out = Buffer.from(await response.arrayBuffer());
    res.statusCode = response.status;
    for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader("set-cookie", cookies);
    res.setHeader("content-length", out.byteLength);
    res.end(out);
  } catch (err) {
    // withRoute answers every error itself: this is a failure around it (the connection, a bug).
    log.error("request failed", { path: req.url, ...errorFields(err) });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, { ...apiSecurityHeaders(appUrl), "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify({ error: "Internal server error", status: 500 }));
  }
}
