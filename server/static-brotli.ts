// The build's scripts and stylesheets (`/_next/static/`) in Brotli at its highest quality for the
// browsers that take it. What Next.js serves is compressed as it streams (./main.ts), at a quality
// fast enough for that; these files never change under their name (the build hashes them), so
// each is compressed once, at the highest quality, off the main thread, and kept: a phone on a slow
// link waits for all of them before the donate page works (bench/README.md, "Pages"). A file's
// first request is served by Next.js while that runs, every later one from memory. Only the files the build wrote
// are candidates (listed at start), so no request can make the cache grow.
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";
import { BASE_SECURITY_HEADERS } from "@/lib/security/headers";

const compress = promisify(brotliCompress);

const PREFIX = "/_next/static/";
/** The text files worth compressing, with the type Next.js serves them as. */
const TYPES: Readonly<Record<string, string>> = {
  ".js": "application/javascript; charset=UTF-8",
  ".css": "text/css; charset=UTF-8",
};

/** Serves a request itself (a promise of its end), or answers undefined to leave it to Next.js. */
export type StaticBrotli = (req: IncomingMessage, res: ServerResponse) => Promise<void> | undefined;

/**
 * Whether an Accept-Encoding header takes `br`: named with a q-value above 0, or through `*`
 * when `br` is not named.
 */
export function acceptsBrotli(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const part of header.split(",")) {
    const [name, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const takes = Number.isFinite(q) && q > 0;
    if (name === "br") return takes;
    if (name === "*") star = takes;
  }
  return star;
}

/** The build's .js and .css files under `dir` (`.next/static`), by their path below it ("chunks/x.js"). */
function listFiles(dir: string): Set<string> {
  const files = new Set<string>();
  try {
    for (const f of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      if (TYPES[path.extname(f)]) files.add(f.split(path.sep).join("/"));
    }
  } catch {
    // no build output (development): nothing to serve
  }
  return files;
}

/** The Brotli-serving step over the build's static folder `dir`. */
export function staticBrotli(dir: string): StaticBrotli {
  const files = listFiles(dir);
  // A file's Brotli body, or null while it is compressed (or when it could not be read).
  const compressed = new Map<string, Buffer | null>();
  const start = (name: string) => {
    compressed.set(name, null);
    void readFile(path.join(dir, name))
      .then((raw) =>
        compress(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
      )
      .then(
        (body) => compressed.set(name, body),
        // Unreadable (the build replaced under a running server): Next.js keeps answering it.
        () => undefined,
      );
  };
  return (req, res) => {
    if (files.size === 0 || (req.method !== "GET" && req.method !== "HEAD")) return undefined;
    const url = req.url ?? "";
    if (!url.startsWith(PREFIX)) return undefined;
    const q = url.indexOf("?");
    const name = (q < 0 ? url : url.slice(0, q)).slice(PREFIX.length);
    // Only a name the build wrote, as written (no percent-encoding, no dot segments to resolve).
    if (!files.has(name) || !acceptsBrotli(req.headers["accept-encoding"])) return undefined;
    const body = compressed.get(name);
    if (!body) {
      if (body === undefined) start(name);
      return undefined;
    }
    res.writeHead(200, {
      ...BASE_SECURITY_HEADERS,
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Type": TYPES[path.extname(name)],
      "Content-Encoding": "br",
      "Content-Length": body.length,
      Vary: "Accept-Encoding",
    });
    res.end(req.method === "HEAD" ? undefined : body);
    return Promise.resolve();
  };
}
