/**
 * A throwaway HTTP server on 127.0.0.1 (a random port) standing in for a third party the app calls
 * (Stripe, Resend, a webhook receiver, a CAPTCHA verifier…). Each request's body is read whole
 * before `handle` answers it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resetEnv } from "@/lib/env";

export type LocalRequest = { method: string; url: URL; path: string; headers: IncomingHttpHeaders; body: string };
/** `body` goes out as JSON unless it is a string; no `body`, an empty answer. */
export type LocalReply = { status: number; body?: unknown; headers?: Record<string, string> };

export type LocalServer = { server: Server; url: string; close: () => Promise<void> };

export async function startLocalServer(handle: (req: LocalRequest) => LocalReply | Promise<LocalReply>): Promise<LocalServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://local");
      const reply = await handle({
        method: req.method ?? "",
        url,
        path: url.pathname,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const text = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      const json = reply.body !== undefined && typeof reply.body !== "string";
      res.writeHead(reply.status, { ...(json ? { "Content-Type": "application/json" } : {}), ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Sets (or, for `undefined`, removes) environment variables and makes the app read them again;
 * returns what they were, for a later `setEnv` to put back.
 */
export function setEnv(values: Record<string, string | undefined>): Record<string, string | undefined> {
  const before: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(values)) {
    before[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnv();
  return before;
}
