import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptsBrotli, staticBrotli } from "@/server/static-brotli";
import { rawRequest } from "../helpers/raw-request";

// A build's static folder, and a server that answers what the step leaves with "next" (Next.js's place).
const dir = mkdtempSync(path.join(os.tmpdir(), "goodfund-brotli-"));
const script = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word${i % 97}`))};\n`;
const style = ".a { color: red }\n".repeat(200);
let server: http.Server;
let base = "";

beforeAll(async () => {
  mkdirSync(path.join(dir, "chunks"), { recursive: true });
  mkdirSync(path.join(dir, "media"), { recursive: true });
  writeFileSync(path.join(dir, "chunks", "app-1a2b.js"), script);
  writeFileSync(path.join(dir, "chunks", "page.css"), style);
  writeFileSync(path.join(dir, "media", "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const brotli = staticBrotli(dir);
  server = http.createServer((req, res) => {
    if (brotli(req, res)) return;
    res.writeHead(200, { "x-served-by": "next" });
    res.end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request (fetch would decompress, and sends its own Accept-Encoding), its path as given. */
const get = (p: string, headers: Record<string, string> = {}, method = "GET") => rawRequest(base, p, { headers, method });

/** Asks until the step serves `p` itself (its first requests go on while the file is compressed). */
async function whenCompressed(p: string, headers: Record<string, string>) {
  for (let i = 0; i < 200; i++) {
    const res = await get(p, headers);
    if (res.headers["x-served-by"] !== "next") return res;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${p} was never served in Brotli`);
}

describe("the build's scripts and stylesheets in Brotli", () => {
  it("leaves a file's first request to Next.js, then serves it compressed, byte for byte the file", async () => {
    const first = await get("/_next/static/chunks/app-1a2b.js", { "accept-encoding": "gzip, deflate, br" });
    expect(first.headers["x-served-by"]).toBe("next");
    const res = await whenCompressed("/_next/static/chunks/app-1a2b.js", { "accept-encoding": "gzip, deflate, br" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toBe("application/javascript; charset=UTF-8");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers.vary).toBe("Accept-Encoding");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(Buffer.byteLength(script) / 4);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it("serves stylesheets as CSS, a query string ignored, and HEAD without a body", async () => {
    const res = await whenCompressed("/_next/static/chunks/page.css?v=1", { "accept-encoding": "br" });
    expect(res.headers["content-type"]).toBe("text/css; charset=UTF-8");
    expect(brotliDecompressSync(res.body).toString()).toBe(style);
    const head = await get("/_next/static/chunks/page.css", { "accept-encoding": "br" }, "HEAD");
    expect(head.headers["content-encoding"]).toBe("br");
    expect(Number(head.headers["content-length"])).toBe(res.body.length);
    expect(head.body.length).toBe(0);
  });

  it("leaves to Next.js a client that doesn't take Brotli, other methods, other files and names the build did not write", async () => {
    await whenCompressed("/_next/static/chunks/app-1a2b.js", { "accept-encoding": "br" });
    const cases: [string, Record<string, string>, string?][] = [
      ["/_next/static/chunks/app-1a2b.js", {}],
      ["/_next/static/chunks/app-1a2b.js", { "accept-encoding": "gzip, deflate" }],
      ["/_next/static/chunks/app-1a2b.js", { "accept-encoding": "gzip, br;q=0" }],
      ["/_next/static/chunks/app-1a2b.js", { "accept-encoding": "br" }, "POST"],
      ["/_next/static/media/logo.png", { "accept-encoding": "br" }],
      ["/_next/static/chunks/../chunks/app-1a2b.js", { "accept-encoding": "br" }],
      ["/_next/static/chunks/%61pp-1a2b.js", { "accept-encoding": "br" }],
      ["/_next/static/chunks/missing.js", { "accept-encoding": "br" }],
      ["/chunks/app-1a2b.js", { "accept-encoding": "br" }],
    ];
    for (const [p, headers, method] of cases) {
      const res = await get(p, headers, method);
      expect(res.headers["x-served-by"], `${method ?? "GET"} ${p} ${JSON.stringify(headers)}`).toBe("next");
    }
  });

  it("reads Accept-Encoding's q-values", () => {
    expect(acceptsBrotli("gzip, deflate, br")).toBe(true);
    expect(acceptsBrotli("BR;q=0.5")).toBe(true);
    expect(acceptsBrotli("br;q=0, gzip")).toBe(false);
    expect(acceptsBrotli("br;q=0.0")).toBe(false);
    expect(acceptsBrotli("*")).toBe(true);
    expect(acceptsBrotli("gzip, *;q=0")).toBe(false);
    expect(acceptsBrotli("*, br;q=0")).toBe(false);
    expect(acceptsBrotli("gzip")).toBe(false);
    expect(acceptsBrotli("brotli")).toBe(false);
    expect(acceptsBrotli(undefined)).toBe(false);
    expect(acceptsBrotli("")).toBe(false);
  });
});
