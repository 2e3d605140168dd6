import type { IncomingMessage, ServerResponse } from "node:http";
import { NextRequest } from "next/server";
import { getEnv } from "@/lib/env";
import { hostName, mayBeCustomDomain } from "@/lib/hosted-urls/custom-domains";
import { errorFields, log } from "@/lib/log";
import { apiSecurityHeaders } from "@/lib/security/headers";
import { MAX_BODY_BYTES } from "./body";
import type { RouteHandler } from "./route";

/** Where scripts/server.mjs finds the direct routes of its process (set at start-up by instrumentation.ts). */
export const DIRECT_ROUTES = Symbol.for("goodfund.direct-routes");

/** Answers a request itself (a promise of its end), or undefined to leave it to Next.js. */
export type DirectServer = (req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined;

/**
 * The server for a few hot API routes, called by scripts/server.mjs before Next.js: the same
 * route handler (withRoute: the same checks, errors, headers and log line), given the request
 * straight from node:http instead of through Next.js's router, proxy.ts and app-route runtime,
 * which cost a webhook more CPU than all of its own work (bench/README.md, "Direct routes").
 *
 * It takes only what proxy.ts would pass through unchanged: an exact path (no query, no trailing
 * slash), a method the route has, on a host that cannot be an organization's custom domain (the
 * app's own, an IP address, localhost), and a body whose declared size is within the limit.
 * Everything else (a custom domain's 404, a redirect, a 405, a 413 said up front) goes to
 * Next.js as before. A route served here must not use what only Next.js's request scope gives
 * (`headers()`, `cookies()`, `after()`): the handlers listed in app/api/direct-routes.ts read
 * only their request.
 */
export function directServer(routes: Readonly<Record<string, Partial<Record<string, RouteHandler>>>>): DirectServer {
  const table = new Map(Object.entries(routes).map(([path, handlers]) => [path, new Map(Object.entries(handlers))]));
  let appHost = { url: "", name: "" };
  return (req, res) => {
    const handler = table.get(req.url ?? "")?.get(req.method ?? "");
    if (!handler) return undefined;
    const appUrl = getEnv().appUrl;
    if (appHost.url !== appUrl) appHost = { url: appUrl, name: new URL(appUrl).hostname };
    if (mayBeCustomDomain(hostName(req.headers.host ?? null), appHost.name)) return undefined;
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return undefined;
    return serve(handler, req, res, appUrl);
  };
}

async function serve(handler: RouteHandler, req: IncomingMessage, res: ServerResponse, appUrl: string): Promise<void> {
  try {
    const body = await readBody(req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const request = new NextRequest(new URL(req.url!, appUrl), { method: req.method, headers, body: body as Uint8Array<ArrayBuffer> });
    const response = await handler(request, { params: Promise.resolve({}) });
    const out = Buffer.from(await response.arrayBuffer());
    res.statusCode = response.status;
    for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader("set-cookie", cookies);
    res.setHeader("content-length", out.byteLength);
    res.end(out);
  } catch (err) {
    if (err instanceof ClientGone) return;
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

/**
 * The request's body, at most MAX_BODY_BYTES + 1 bytes of it: past the limit the rest is drained
 * unread, and the route's own reader (readRawBody) answers 413 for what it gets.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (size > MAX_BODY_BYTES) return;
      const room = MAX_BODY_BYTES + 1 - size;
      const kept = chunk.byteLength > room ? chunk.subarray(0, room) : chunk;
      chunks.push(kept);
      size += kept.byteLength;
    });
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    // The client hung up before sending it all (Node.js reports an `aborted` error, then `close`).
    req.once("error", () => reject(new ClientGone()));
    req.once("close", () => {
      if (!req.complete) reject(new ClientGone());
    });
  });
}

/** The client closed the connection before its body was all sent: there is nobody to answer. */
class ClientGone extends Error {}
