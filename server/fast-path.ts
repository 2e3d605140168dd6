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

/** Serves a request itself (a promise of its end), or answers undefined to leave it to Next.js. */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined;

/**
 * The fast path over `routes` (exact path, then method): a request for any other path or method
 * (a trailing slash Next.js redirects, a 405 the route module answers) goes to Next.js.
 */
export function fastPath(routes: FastRoutes): FastPath {
  const table = new Map(Object.entries(routes).map(([path, handlers]) => [path, new Map(Object.entries(handlers))]));
  return (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const handler = table.get(q < 0 ? url : url.slice(0, q))?.get(req.method ?? "");
    if (!handler) return undefined;
    const route = q < 0 ? url : url.slice(0, q);
    // A request span like the ones Next.js makes for the requests it routes (when tracing is on).
    return inSpan(
      `${req.method} ${route}`,
      { "http.route": route, "http.request.method": req.method ?? "" },
      () => serve(handler, req, res),
      SpanKind.SERVER,
    );
  };
}

/** Serves a request whose body has arrived (the overload guard waited for it: ./request-body.ts). */
async function serve(handler: RouteHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
    const response = await handler(request, { params: Promise.resolve({}) });
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
