// Body-first admission: the overload guard reads a request's body before the request takes a
// slot of its class, so a client that announces a large body and trickles it holds a connection
// (bounded by the deadline and the size cap), never a slot that real work needs.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { MAX_BODY_BYTES } from "@/lib/api/body";

export type BodyRead =
  | { outcome: "read"; body: Buffer | null }
  | { outcome: "too-large" }
  | { outcome: "too-slow" }
  /** The client hung up before sending it all: there is nobody to answer. */
  | { outcome: "gone" };

/** Whether a request carries a body (a non-zero Content-Length, or a chunked one). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return length.trim() !== "0";
  return req.headers["transfer-encoding"] !== undefined;
}

/**
 * Reads the whole body (null when there is none), at most `limit` bytes within `deadlineMs`,
 * and puts it back in front of the request's stream (`unshift`, before the stream's end is
 * announced), so whoever serves the request next (Next.js) reads it as if it had just arrived.
 * A body declared larger than the limit is refused before a byte is read.
 */
export function readBodyFirst(
  req: IncomingMessage,
  { deadlineMs, limit = MAX_BODY_BYTES }: { deadlineMs: number; limit?: number },
): Promise<BodyRead> {
  if (!hasBody(req)) return Promise.resolve({ outcome: "read", body: null });
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ outcome: "too-large" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead) => {
      clearTimeout(timer);
      req.off("readable", onReadable);
      req.off("error", onGone);
      req.off("close", onClose);
      resolve(result);
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while ((chunk = req.read() as Buffer | null) !== null) {
        size += chunk.byteLength;
        if (size > limit) return finish({ outcome: "too-large" });
        chunks.push(chunk);
      }
      // Synchronously, in the turn the last bytes were read: the stream announces its end only
      // on a later tick, and then only if nothing was put back.
      if (req.complete) {
        const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
        if (size > 0) req.unshift(body);
        finish({ outcome: "read", body });
      }
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

/**
 * 413 for a body past the limit, 408 for one that did not arrive in time; either way the
 * connection is closed (what is left of the body is never read). The API's JSON error shape
 * under /api, plain text elsewhere.
 */
export function refuseBody(req: IncomingMessage, res: ServerResponse, outcome: "too-large" | "too-slow", pathname: string): void {
  const status = outcome === "too-large" ? 413 : 408;
  const message = outcome === "too-large" ? "Request body too large (limit 1 MiB)" : "Request body not received in time";
  const api = pathname === "/api" || pathname.startsWith("/api/");
  const body = api ? JSON.stringify({ error: message, status }) : `${message}\n`;
  const incoming = req.headers["x-request-id"];
  res.writeHead(status, {
    "Content-Type": api ? "application/json" : "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Request-Id": typeof incoming === "string" && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID(),
    "X-Content-Type-Options": "nosniff",
    Connection: "close",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
