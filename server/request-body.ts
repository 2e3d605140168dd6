// Body-first admission: the overload guard waits for a request's body before the request takes a
// slot of its class, so a client that announces a large body and trickles it holds a connection
// (bounded by the deadline and the size cap), never a slot that real work needs.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_BODY_BYTES } from "@/lib/api/body";

export type BodyArrival =
  | { outcome: "arrived" }
  | { outcome: "too-large" }
  | { outcome: "too-slow" }
  /** The client hung up before sending it all: there is nobody to answer. */
  | { outcome: "gone" };

/**
 * The server's options that let a whole body wait in its request's buffer: a request stream buffers
 * up to its high-water mark without being read, and one byte past the limit tells a body too large.
 */
export const SERVER_STREAM_OPTIONS = { highWaterMark: MAX_BODY_BYTES + 1 } as const;

/**
 * Bodies up to this size wait for admission without any further bound (a donation's is a few
 * hundred bytes). Larger ones, and chunked ones of unknown size, count against the client's and
 * the server's budgets of bodies waiting (server/overload.ts): what sits in memory before a
 * request is authenticated or rate-limited stays bounded per client and in total.
 */
export const SMALL_BODY_BYTES = 64 * 1024;

/**
 * The bytes a request's body may take in memory while it arrives, when it is large: its declared
 * length, or the limit for a chunked body; 0 for a small body, or one declared past the limit
 * (refused on the header).
 */
export function largeBodyBytes(req: IncomingMessage, limit = MAX_BODY_BYTES): number {
  if (!hasBody(req) || req.complete) return 0;
  const length = req.headers["content-length"];
  if (length === undefined) return limit;
  const declared = Number(length);
  if (!Number.isFinite(declared)) return limit;
  return declared > SMALL_BODY_BYTES && declared <= limit ? declared : 0;
}

/** Whether a request carries a body (a non-zero Content-Length, or a chunked one). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return length.trim() !== "0";
  return req.headers["transfer-encoding"] !== undefined;
}

/**
 * Waits until the request's whole body has arrived, at most `limit` bytes within `deadlineMs`,
 * without reading it: it waits in the request's own buffer (SERVER_STREAM_OPTIONS), so whoever
 * serves the request next (Next.js, or the fast path through `takeBody`) reads an untouched
 * stream. A body declared larger than the limit is refused before a byte arrives.
 */
export function readBodyFirst(
  req: IncomingMessage,
  { deadlineMs, limit = MAX_BODY_BYTES }: { deadlineMs: number; limit?: number },
): Promise<BodyArrival> {
  if (!hasBody(req) || req.complete) return Promise.resolve({ outcome: "arrived" });
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ outcome: "too-large" });
  return new Promise((resolve) => {
    const finish = (result: BodyArrival) => {
      clearTimeout(timer);
      req.off("readable", onReadable);
      req.off("error", onGone);
      req.off("close", onClose);
      resolve(result);
    };
    // Past the limit, or past what the buffer holds unread: too large either way.
    const onReadable = () => {
      if (req.readableLength > Math.min(limit, req.readableHighWaterMark - 1)) finish({ outcome: "too-large" });
      else if (req.complete) finish({ outcome: "arrived" });
    };
    const onGone = () => finish({ outcome: "gone" });
    const onClose = () => {
      if (!req.complete) onGone();
    };
    const timer = setTimeout(() => finish({ outcome: "too-slow" }), deadlineMs);
    timer.unref?.();
    req.on("readable", onReadable);
    req.once("error", onGone);
    req.once("close", onClose);
  });
}

/** The body `readBodyFirst` saw arrive, read out of the request's buffer (null when there is none). */
export function takeBody(req: IncomingMessage): Buffer | null {
  return req.readableLength > 0 ? (req.read() as Buffer) : null;
}

const REFUSALS = {
  "too-large": { status: 413, message: "Request body too large (limit 1 MiB)" },
  "too-slow": { status: 408, message: "Request body not received in time" },
  "too-many": { status: 429, message: "Too many large requests from this client at once" },
  "no-room": { status: 503, message: "Too many large requests at once" },
} as const;
export type BodyRefusal = keyof typeof REFUSALS;

/**
 * 413 for a body past the limit: what is left of it is read and dropped (the client, still
 * sending, would otherwise see its connection reset before the answer; the server's
 * requestTimeout bounds that). 408 for a body that did not arrive in time; 429 for a large body
 * while the same client already sends as many as it may at once, 503 when the server's budget of
 * large bodies waiting is spent (both with Retry-After): the connection is closed without reading
 * the body. The API's JSON error shape under /api, plain text elsewhere.
 */
export function refuseBody(req: IncomingMessage, res: ServerResponse, outcome: BodyRefusal, pathname: string): void {
  const { status, message } = REFUSALS[outcome];
  const api = pathname === "/api" || pathname.startsWith("/api/");
  const body = api ? JSON.stringify({ error: message, status }) : `${message}\n`;
  const incoming = req.headers["x-request-id"];
  res.writeHead(status, {
    "Content-Type": api ? "application/json" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Request-Id": typeof incoming === "string" && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID(),
    "X-Content-Type-Options": "nosniff",
    ...(outcome === "too-large" ? {} : { Connection: "close" }),
    ...(outcome === "too-many" || outcome === "no-room" ? { "Retry-After": "5" } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : body);
  if (outcome === "too-large") req.resume();
}
